// Next bundles pages, route handlers, actions, the proxy and instrumentation apart, so a module's
// value exists once per bundle; what the process holds once lives here. No "server-only": the
// Pages Router's live route reads the live feed's registry through it.

const holder = globalThis as typeof globalThis & Record<symbol, unknown>;

/** The process's one `name`, made by `make` on first use. */
export function processSingleton<T>(name: string, make: () => T): T {
  const key = Symbol.for(`downcheck.${name}`);
  if (!(key in holder)) holder[key] = make();
  return holder[key] as T;
}
