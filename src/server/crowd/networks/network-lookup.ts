import "server-only";
import { runOutsideRequest } from "@/server/base/request-context";
import { UNKNOWN_NETWORK, type VisitorNetwork } from "@/lib/visitor-network";
import { getConfig } from "@/server/config";
import { resolveGeoDataDir } from "./geo-files.mjs";
import { loadNetworkData, type NetworkData } from "./network-data";

// One copy of the data per process, loaded at the first lookup (not at start: a process that
// never takes a report never pays for it), and shared by every caller that arrives meanwhile.

let loading: Promise<NetworkData> | undefined;
const warned = new Set<string>();

/** Each problem once per process: a missing file would otherwise be logged at every report. */
function warnOnce(message: string): void {
  if (warned.has(message)) return;
  warned.add(message);
  console.warn(`[geo] ${message}`);
}

/** The data, loading it on the first call; concurrent first callers share one load. Never rejects. */
export function loadVisitorNetworks(): Promise<NetworkData> {
  // Outside the request of the first reporter: the load is kept for good, and a promise made
  // under that request's AsyncLocalStorage would keep its render as long.
  loading ??= runOutsideRequest(async () => {
    let dataDir: string;
    try {
      dataDir = resolveGeoDataDir(getConfig().GEO_DATA_DIR);
    } catch (error) {
      // An invalid environment stops start-up elsewhere; here it only means the default folder.
      warnOnce(`GEO_DATA_DIR unreadable (${error instanceof Error ? error.message : String(error)}), using data/geo`);
      dataDir = resolveGeoDataDir(undefined);
    }
    return loadNetworkData({ dataDir, warn: warnOnce });
  });
  return loading;
}

/**
 * The country and network of a visitor address, from offline data. Never throws: an address
 * in no known range, a private or documentation address, garbage, or data that could not be
 * loaded gives unknown parts.
 */
export async function lookupVisitorNetwork(address: string): Promise<VisitorNetwork> {
  try {
    return (await loadVisitorNetworks()).lookup(address);
  } catch (error) {
    warnOnce(`lookup failed: ${error instanceof Error ? error.message : String(error)}`);
    return UNKNOWN_NETWORK;
  }
}
