import type { IncomingMessage } from "node:http";

export function forwardedFor(header: string | string[] | undefined, peer: string): string;
export function forwardedProto(
  header: string | string[] | undefined,
  connection: { encrypted: boolean; trustProxyHops: number },
): "http" | "https";
export function setForwardedHeaders(request: IncomingMessage, trustProxyHops: number): void;
