import type { IncomingMessage } from "node:http";
export function readBody(request: IncomingMessage, limitBytes: number): Promise<Buffer>;
export function actionBodyProblem(
  contentType: string | undefined,
  body: Buffer,
): Promise<{ status: 400 | 415; code: string; message: string } | null>;
export function withBody(request: IncomingMessage, body: Buffer): IncomingMessage;
