import "server-only";
import { z } from "zod";
import { DEFAULT_WORLD_PROBES } from "@/lib/world-shares";
import type { Location, ProbeResult } from "@/lib/probe-result";
import type { ProbeContext, Tester, TesterKind, TesterSettings } from "@/server/checking/probe/types";
import { type Target } from "@/lib/domain";
import { worldAccess } from "@/server/checking/world/world-access";
import { createWorldCheck } from "@/server/checking/world/world-check";

// The world: Globalping's public probes, one measurement a round (the rules: world/world-check.ts).

export const globalpingTesterOptionsSchema = z
  .object({
    /** The API's base URL; the registry fills it from GLOBALPING_URL. */
    url: z.url({ protocol: /^https?$/ }),
    token: z.string().min(1).optional(),
    /** Probes per measurement (tests per check): Globalping allows 50 without a token. */
    probes: z.number().int().min(1).max(50).default(DEFAULT_WORLD_PROBES),
    /** Globalping "magic" locations the probes are spread over, e.g. ["Europe", "Asia"]. */
    locations: z.array(z.string().min(1).max(128)).min(1).max(50),
    /** How long a world result is reused before a new measurement. */
    freshForSeconds: z.number().int().positive().default(600),
    /** Tests an hour this tester may spend; defaults to Globalping's free limit. */
    hourlyBudget: z.number().int().positive().optional(),
    /** Named in the User-Agent, as Globalping asks of API clients; the registry fills PUBLIC_BASE_URL. */
    userAgentUrl: z.url(),
    /** Where site instances share the budget; the registry fills REDIS_URL. Unset: this process's own. */
    redisUrl: z.string().min(1).optional(),
  })
  .strict();

export type GlobalpingTesterOptions = z.infer<typeof globalpingTesterOptionsSchema>;

class GlobalpingTester implements Tester {
  readonly kind = "globalping" as const;
  readonly server = "Globalping";
  // It may wait for the local answer before spending budget on a routine refresh.
  readonly escalates = true;
  readonly id: string;
  readonly location: Location;
  private readonly world: ReturnType<typeof createWorldCheck>;

  constructor({ id }: TesterSettings, options: GlobalpingTesterOptions) {
    this.id = id;
    // A service, not a place: each probe's result carries its own location.
    this.location = { city: "", country: "" };
    this.world = createWorldCheck({
      ...worldAccess(id, options),
      tester: this,
      locations: options.locations,
      freshForMs: options.freshForSeconds * 1000,
    });
  }

  probe(target: Target, context: ProbeContext): Promise<ProbeResult[]> {
    return this.world.run(target, context);
  }
}

export const globalpingTesterKind: TesterKind<GlobalpingTesterOptions> = {
  name: "globalping",
  optionsSchema: globalpingTesterOptionsSchema,
  create: (options, settings) => new GlobalpingTester(settings, options),
};
