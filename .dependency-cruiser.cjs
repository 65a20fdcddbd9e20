/**
 * The import rules CI holds the code to (`npm run lint:imports`): no runtime import cycle anywhere; the domain's
 * flow modules (acquirers, inbound, settle, test-mode, payouts: the folders of `packages/domain/src` that have a face,
 * `index.ts`) are reached from outside only through that face, so a module's files stay its own to reshape; and the
 * wire format (`packages/wire`) sits under the domain and the apps, which import it.
 */
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "no-runtime-cycle",
      comment: "A module that imports itself back at run time loads half-initialised; break the cycle.",
      severity: "error",
      from: {},
      to: { circular: true, viaOnly: { dependencyTypesNot: ["type-only"] } },
    },
    {
      name: "domain-modules-through-their-faces",
      comment: "Import another domain module from its index.ts, not one of its files.",
      severity: "error",
      from: { pathNot: "^packages/domain/src/(acquirers|inbound|settle|test-mode|payouts)/" },
      to: {
        path: "^packages/domain/src/(acquirers|inbound|settle|test-mode|payouts)/",
        pathNot: "^packages/domain/src/[^/]+/index\\.ts$",
      },
    },
    {
      name: "flow-modules-through-each-others-faces",
      comment: "A flow module imports another flow module from its index.ts, not one of its files.",
      severity: "error",
      from: { path: "^packages/domain/src/(acquirers|inbound|settle|test-mode|payouts)/" },
      to: {
        path: "^packages/domain/src/(acquirers|inbound|settle|test-mode|payouts)/",
        pathNot: ["^packages/domain/src/$1/", "^packages/domain/src/[^/]+/index\\.ts$"],
      },
    },
    {
      name: "wire-below-the-domain",
      comment: "The wire format is data and its serializers: it reads the database's row types, nothing above them.",
      severity: "error",
      from: { path: "^packages/wire/" },
      to: { path: "^(apps/|packages/(?!wire/|db/))" },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "(^|/)(node_modules|dist|generated)/" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    combinedDependencies: false,
  },
};
