import "server-only";
import type { OfficialKind } from "@/lib/official-status";
import type { OfficialAdapter } from "./adapter";
import { betterStackAdapter } from "./betterstack";
import { instatusAdapter } from "./instatus";
import { statuspageAdapter } from "./statuspage";

/**
 * Every kind of official page we read, in the order a page of unknown kind is tried. A new kind
 * is one file in this folder and one line here.
 */
export const OFFICIAL_ADAPTERS: readonly OfficialAdapter[] = [statuspageAdapter, instatusAdapter, betterStackAdapter];

export const adaptersByKind: ReadonlyMap<OfficialKind, OfficialAdapter> = new Map(
  OFFICIAL_ADAPTERS.map((adapter) => [adapter.kind, adapter]),
);

export type { OfficialAdapter } from "./adapter";
