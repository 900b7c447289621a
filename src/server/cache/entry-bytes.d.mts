export function byteSize(value: { kind: string; [key: string]: unknown }): number;
export function withOwnBuffers<T extends { kind: string }>(value: T): T;
export function stringBytes(text: string | undefined | null): number;
export function asServed<T>(value: T): T;
