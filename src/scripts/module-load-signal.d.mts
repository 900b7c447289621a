/** Lets an already-settled module load pass Next's process-wide module-load signal uncounted; true when installed now. */
export function ignoreSettledModuleLoads(CacheSignal?: { prototype: object }): boolean;
