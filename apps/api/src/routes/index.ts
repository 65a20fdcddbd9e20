/**
 * Every router of the API, mounted in one place.
 */
import type { Express } from "express";
import type { AppDeps } from "../deps";
import { probesRouter } from "./probes/probes.router";

/** Mounts the routers on `app`. */
export function mountRoutes(app: Express, deps: AppDeps): void {
  app.use(probesRouter(deps));
}
