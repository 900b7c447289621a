import http from "node:http";
import https from "node:https";
import net from "node:net";
import { refusedPort } from "../../support/refused-port";

// Throwaway servers on 127.0.0.1, port 0: the only addresses tests may use.

export interface RunningServer {
  port: number;
  /** http://127.0.0.1:<port>/ (https:// for TLS servers). */
  url: string;
  close(): Promise<void>;
}

const LOOPBACK = "127.0.0.1";

export function startHttpServer(handler: http.RequestListener): Promise<RunningServer> {
  return listen(http.createServer(handler), "http");
}

export function startHttpsServer(handler: http.RequestListener, cert: { key: string; cert: string }): Promise<RunningServer> {
  return listen(https.createServer({ key: cert.key, cert: cert.cert }, handler), "https");
}

/** Accepts connections and never says a word: the server that makes clients wait. */
export function startSilentTcpServer(): Promise<RunningServer> {
  return listen(
    net.createServer(() => undefined),
    "tcp",
  );
}

/** A port where connections are refused for the whole run (below the ephemeral range: refused-port.ts). */
export async function closedPort(): Promise<RunningServer> {
  const port = await refusedPort();
  return { port, url: `http://${LOOPBACK}:${port}/`, close: async () => undefined };
}

async function listen(server: net.Server, scheme: "http" | "https" | "tcp"): Promise<RunningServer> {
  // Raw TCP sockets (under TLS too), so close() also ends connections a test left hanging.
  const sockets = new Set<net.Socket>();
  server.on("connection", (socket: net.Socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, LOOPBACK, () => resolve());
  });
  const { port } = server.address() as net.AddressInfo;
  let closed = false;
  return {
    port,
    url: `${scheme === "https" ? "https" : "http"}://${LOOPBACK}:${port}/`,
    close: async () => {
      if (closed) return;
      closed = true;
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
