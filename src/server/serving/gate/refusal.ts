import "server-only";

// A request the gate answers itself, before Next renders anything: a clear 4xx that says why, in
// the API's error shape ({ error: { code, message } }), and that no cache may keep.

export interface GateRefusal {
  status: number;
  code: string;
  message: string;
  headers?: Record<string, string>;
}

export function refusalResponse({ status, code, message, headers }: GateRefusal): Response {
  return Response.json({ error: { code, message } }, { status, headers: { ...headers, "Cache-Control": "no-store" } });
}
