// @ts-check
// The house's rules, checked by `npm run lint`: no import circles anywhere in src/, and in
// src/server every arrow points down the floors below, type-only imports included.
//
//   serving/          the gate, the page's cached reads, HTTP answers, actions, startup   (top)
//   app.ts            the composition root: builds the services, wires the wings
//   owner/ watching/  the owner's word; jobs, the watch, incidents, history, push
//   crowd/            reports, visitors, their networks
//   checking/         probes, testers, the world, the check service and its rounds
//   data/             Prisma queries per resource
//   base/ redis/ config.ts db.ts   what everything shares                              (ground)
//
// The four wings keep their insides private: from outside, only a wing's index.ts is imported.

const WINGS = ["checking", "crowd", "owner", "watching"];

/** The floors, lowest first, each with what may not be imported from it: every floor above. */
const FLOORS = [
  { name: "ground", path: "^src/server/(base/|redis/|config\\.ts$|db\\.ts$)" },
  { name: "data", path: "^src/server/data/" },
  { name: "checking", path: "^src/server/checking/" },
  { name: "crowd", path: "^src/server/crowd/" },
  { name: "owner", path: "^src/server/owner/", beside: "^src/server/watching/" },
  { name: "watching", path: "^src/server/watching/", beside: "^src/server/owner/" },
  { name: "app", path: "^src/server/app\\.ts$" },
  { name: "serving", path: "^src/server/serving/" },
];

const above = (index) => FLOORS.slice(index + 1).map((floor) => floor.path.replace(/^\^src\/server\//, ""));

/** @type {import("dependency-cruiser").IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "no-circular",
      severity: "error",
      comment: "Files that import each other, directly or around a loop.",
      from: { path: "^src/" },
      to: { circular: true },
    },
    ...FLOORS.map((floor, index) => ({
      name: `${floor.name}-calls-down-only`,
      severity: "error",
      comment: `${floor.name} may import only the floors below it.`,
      from: { path: floor.path },
      to: {
        path: [
          ...(above(index).length > 0 ? [`^src/server/(${above(index).join("|")})`] : []),
          "^src/server/agent/",
          ...(floor.beside ? [floor.beside] : []),
        ],
      },
    })),
    ...WINGS.map((wing) => ({
      name: `${wing}-is-private`,
      severity: "error",
      comment: `Outside ${wing}/, only its public entry (index.ts) is imported.`,
      // Plain-Node scripts (geo-update.mjs) load the network data's .mjs files themselves.
      from: { path: "^src/", pathNot: [`^src/server/${wing}/`, "^src/scripts/.+\\.mjs$"] },
      to: { path: `^src/server/${wing}/`, pathNot: `^src/server/${wing}/index\\.ts$` },
    })),
    {
      name: "agent-uses-checking-only",
      severity: "error",
      comment: "The tester agent program runs apart from the site: the probe engine and its settings, nothing else.",
      from: { path: "^src/server/agent/" },
      to: { path: "^src/server/(?!checking/index\\.ts$|config\\.ts$|agent/|base/)" },
    },
    {
      name: "cache-uses-redis-only",
      severity: "error",
      comment: "Next loads the cache handlers outside its bundles: they may reach the Redis connection, nothing else of the server.",
      from: { path: "^src/server/cache/" },
      to: { path: "^src/server/(?!cache/|redis/)" },
    },
    {
      name: "lib-is-pure",
      severity: "error",
      comment: "src/lib is pure code for both sides.",
      from: { path: "^src/lib/" },
      to: { path: "^src/(server|app|components)/" },
    },
    {
      name: "schema-engine-stands-alone",
      severity: "error",
      comment: "Prisma's engine stand-in runs before the app exists.",
      from: { path: "^prisma/" },
      to: { path: "^src/" },
    },
  ],
  options: {
    doNotFollow: { path: ["node_modules", "^src/generated/"] },
    exclude: { path: "^src/generated/" },
    tsConfig: { fileName: "tsconfig.json" },
    // Type-only imports are arrows too.
    tsPreCompilationDeps: true,
    enhancedResolveOptions: { extensions: [".ts", ".tsx", ".mjs", ".js", ".json"] },
  },
};
