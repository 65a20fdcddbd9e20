/**
 * The tiny HTTP listener that exposes a registry on its own port (`METRICS_PORT`): the worker has no other HTTP
 * server, and the API uses it to keep `/metrics` off its public port. It answers `GET /metrics` and nothing else, with
 * no authentication, so the port belongs on the private network Prometheus scrapes from.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { Registry } from "prom-client";

/** A running metrics listener. */
export interface MetricsServer {
  /** The port it listens on (the one asked for, or the free one picked for 0). */
  port: number;
  /** Stops accepting connections and resolves once open ones are closed. */
  close(): Promise<void>;
}

/**
 * Serves `registry` in the Prometheus text format at `GET /metrics` on `port` (all interfaces); any other request is
 * 404, any other method on `/metrics` 405.
 * @param onError - told about a collection that failed (the scrape gets a 500)
 * @throws Error when the port cannot be bound (in use, no permission)
 */
export async function serveMetrics(
  registry: Registry,
  port: number,
  onError: (err: unknown) => void = () => {},
): Promise<MetricsServer> {
  const server = createServer((req, res) => {
    const path = (req.url ?? "").split("?")[0];
    if (path !== "/metrics") return void res.writeHead(404, { "content-type": "text/plain" }).end("not found\n");
    if (req.method !== "GET" && req.method !== "HEAD") {
      return void res.writeHead(405, { allow: "GET, HEAD", "content-type": "text/plain" }).end("method not allowed\n");
    }
    registry.metrics().then(
      (body) =>
        res.writeHead(200, { "content-type": registry.contentType }).end(req.method === "HEAD" ? undefined : body),
      (err: unknown) => {
        onError(err);
        res.writeHead(500, { "content-type": "text/plain" }).end("metrics collection failed\n");
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, () => {
      server.off("error", reject);
      resolve();
    });
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeAllConnections();
      }),
  };
}
