/**
 * The services as `npm start` runs them: the command of `npm run start:<service>` in package.json
 * (`node <flags> dist/<service>.cjs`, the bundle `npm run build` writes), for the tests and benches that start them
 * as deployed.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import type { Service } from "../../../scripts/build";
import { REPO_ROOT } from "./template-database";

/** A service with its own `start:` script and bundle (the services `npm run build` bundles). */
export type ServiceName = Service;

/**
 * The command of the npm script `name` of this repository (`start:api`, `start:worker`), from package.json.
 * @throws Error when package.json has no such script
 */
export function npmScript(name: string): string {
  const { scripts } = JSON.parse(readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")) as {
    scripts: Record<string, string>;
  };
  const command = scripts[name];
  if (command === undefined) throw new Error(`package.json has no script ${name}`);
  return command;
}

/**
 * The node flags and the bundle (relative to the repository root) of `npm run start:<service>`.
 * @throws Error when the script is not `node [flags] dist/<service>.cjs`
 */
export function serviceCommand(service: ServiceName): { nodeArgs: string[]; bundle: string } {
  const bundle = `dist/${service}.cjs`;
  const command = /^node (.*?) ?(dist\/[a-z]+\.cjs)$/.exec(npmScript(`start:${service}`));
  if (command?.[2] !== bundle) throw new Error(`start:${service} is not \`node [flags] ${bundle}\``);
  return { nodeArgs: command[1]?.split(" ").filter((flag) => flag !== "") ?? [], bundle };
}
