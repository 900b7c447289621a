import type { IncomingMessage, ServerResponse } from "node:http";

export function acceptsGzip(value: string | string[] | undefined): boolean;

export function sendHeadEarly(
  request: IncomingMessage,
  response: ServerResponse,
  options: {
    headers: Record<string, string>;
    head: Buffer;
    onBeginning: (bytes: Buffer, status: number, headers: Record<string, unknown>) => void;
    onMismatch: (status: number) => void;
  },
): void;

export interface EarlyHead {
  handle(request: IncomingMessage, response: ServerResponse, render: (headSentEarly: boolean) => void): boolean;
}

export function createEarlyHead(options: { headers: Record<string, string>; log?: (message: string) => void }): EarlyHead;
