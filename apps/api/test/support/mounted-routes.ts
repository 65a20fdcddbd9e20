/**
 * Every method and path an Express 5 app serves, read from its router stacks (the `router` package, 2.x, behind
 * Express 5), in OpenAPI's path-template form (`/v1/transactions/{id}`). Used to keep `openapi.json` in step with the
 * routes without changing how routers are written.
 *
 * A layer is one of: a route (`router.get(path, ...)`: `layer.route.path` and `layer.route.methods`), a mounted router
 * (`app.use([path,] router)`: `layer.handle.stack`, mounted at `layer.rawPath`), or plain middleware (no route of its
 * own). Anything this walk cannot express as an OpenAPI path (a regular expression, an array of paths, a wildcard or
 * an optional segment, `router.all`) throws, so that a new kind of route fails the sync test loudly instead of being
 * skipped.
 */
import type { Express } from "express";

/** The parts of a `router` 2.x layer this walk reads. */
interface Layer {
  /** The path given to `use` or `route`, as written (router ≥ 2.2). */
  rawPath?: unknown;
  /** True for `use` without a path (mounted at `/`). */
  slash?: boolean;
  route?: { path: unknown; methods: Record<string, boolean> };
  handle?: { stack?: Layer[] };
}

/** Characters of path-to-regexp v8 syntax that OpenAPI paths cannot say: wildcards, optional groups, escapes. */
const UNSUPPORTED_SYNTAX = /[*{}()?\\+]/;

function asPathString(value: unknown, where: string): string {
  if (typeof value !== "string") throw new Error(`${where}: only string paths can be enumerated, got ${String(value)}`);
  if (UNSUPPORTED_SYNTAX.test(value)) throw new Error(`${where}: path ${value} uses syntax OpenAPI cannot express`);
  return value;
}

/** `/v1` + `/transactions/:id` → `/v1/transactions/{id}`; a trailing slash (a router's `/`) is dropped. */
function joinPath(prefix: string, path: string): string {
  const joined = `${prefix}/${path}`.replace(/\/{2,}/g, "/").replace(/(.)\/$/, "$1");
  return joined.replace(/:(\w+)/g, "{$1}");
}

function walk(stack: Layer[], prefix: string, found: Set<string>): void {
  for (const layer of stack) {
    if (layer.route) {
      const path = joinPath(prefix, asPathString(layer.route.path, "route"));
      for (const method of Object.keys(layer.route.methods)) {
        if (method === "_all") throw new Error(`${path}: router.all cannot be enumerated; name the methods`);
        found.add(`${method.toUpperCase()} ${path}`);
      }
    } else if (Array.isArray(layer.handle?.stack)) {
      const mountedAt = layer.slash ? "" : asPathString(layer.rawPath, "mounted router");
      walk(layer.handle.stack, joinPath(prefix, mountedAt), found);
    }
  }
}

/**
 * The routes of `app`, sorted, as `"<METHOD> <path template>"` (e.g. `"GET /v1/events/{id}"`). HEAD and OPTIONS,
 * which Express answers on its own for every GET route and path, are not listed.
 * @throws Error when a route or mount path cannot be expressed as an OpenAPI path
 */
export function mountedRoutes(app: Express): string[] {
  const router = (app as unknown as { router: { stack: Layer[] } }).router;
  const found = new Set<string>();
  walk(router.stack, "", found);
  return [...found].sort();
}
