export const ACTION_BODY_LIMIT_BYTES: number;
export interface FrontDoorRefusal {
  status: 403 | 405 | 411 | 413;
  code: string;
  message: string;
  headers?: Record<string, string>;
}
export function frontDoorRefusal(request: {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  trustProxyHops?: number;
}): FrontDoorRefusal | null;
export function sendRefusal(
  response: import("node:http").ServerResponse,
  refusal: FrontDoorRefusal,
  securityHeaders: Record<string, string>,
): void;
