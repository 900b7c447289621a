export function byteSize(value: { kind: string; [key: string]: unknown }): number;
export function withOwnBuffers<T extends { kind: string }>(value: T): T;
