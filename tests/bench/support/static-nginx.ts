import { spawn } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { freePort } from "../../support/app";
import { findNginx, listening, NGINX_MISSING, stopNginx } from "../../nginx/support/nginx";

// "nginx serving a static file of the same size": a second nginx, the same binary and the same
// process settings as the one tests/nginx/support/nginx.ts runs with deploy/nginx.conf, serving
// files from a folder as the nginx image's own configuration would (sendfile on, nothing else
// tuned). Like the cache in front of the app, it sends stored bytes: a gzip request gets
// <file>.gz (gzip_static), as nginx's cache keeps the gzipped page Next sent; neither side
// compresses per request.

export interface StaticNginx {
  baseUrl: string;
  /** nginx's master process; its worker is its child. */
  pid: number;
  /** Writes `name` and its gzipped copy. */
  put(name: string, body: string | Buffer): void;
  stop(): Promise<void>;
}

export async function startStaticNginx(): Promise<StaticNginx> {
  const bin = findNginx();
  if (!bin) throw new Error(NGINX_MISSING);
  const dir = mkdtempSync(join(tmpdir(), "downcheck-static-nginx-"));
  chmodSync(dir, 0o755);
  const files = join(dir, "files");
  const port = await freePort();
  const conf = join(dir, "nginx.conf");
  writeFileSync(
    conf,
    `daemon off;
worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 4096; }
http {
  log_format downcheck '$request_uri $status $upstream_cache_status $upstream_addr';
  access_log ${dir}/access.log downcheck;
  client_body_temp_path ${dir}/client;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  types { text/html html; application/json json; }
  server {
    listen 127.0.0.1:${port};
    root ${files};
    sendfile on;
    gzip_static on;
  }
}
`,
  );
  // nginx's workers may run as another user than its master (as root: nobody): they must read it.
  mkdirSync(files, { mode: 0o755 });
  const child = spawn(bin, ["-p", dir, "-e", join(dir, "error.log"), "-c", conf], { stdio: "ignore" });
  try {
    await listening(port, child, join(dir, "error.log"));
  } catch (error) {
    child.kill("SIGKILL");
    throw error;
  }
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    pid: child.pid!,
    put(name, body) {
      writeFileSync(join(files, name), body);
      writeFileSync(join(files, `${name}.gz`), gzipSync(body));
    },
    stop: () => stopNginx(child, dir),
  };
}
