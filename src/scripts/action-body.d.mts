import type { IncomingMessage } from "node:http";
export function readBody(request: IncomingMessage, limitBytes: number): Promise<Buffer>;
export function actionBodyProblem(
  call: { contentType?: string; actionId?: string; callable: ReadonlySet<string> },
  body: Buffer,
): Promise<{ status: 400 | 404 | 415; code: string; message: string } | null>;
export function withBody(request: IncomingMessage, body: Buffer): IncomingMessage;
