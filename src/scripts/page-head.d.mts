export const HEAD_SAMPLE_BYTES: number;

export function sharedHead(a: Buffer, b: Buffer): Buffer;

export interface HeadLearner {
  head(): Buffer;
  headers(): Record<string, string>;
  observe(key: string, beginning: Buffer, pageHeaders: Record<string, unknown>): void;
  forget(): void;
}

export function createHeadLearner(): HeadLearner;
