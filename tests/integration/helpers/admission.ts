import { createAdmission, type AdmissionOptions } from "@/server/checking/admission";
import { memoryLimiter } from "@/server/base/limits";

/** Admission that limits nothing but the rounds in flight, for tests about other things. */
export function roomyAdmission(maxRounds = 16, overrides: Partial<AdmissionOptions> = {}) {
  const plenty = () => memoryLimiter({ points: 1_000_000, durationSeconds: 60 });
  return createAdmission({
    maxRounds,
    fairShare: 1,
    visitorRounds: plenty(),
    siteRounds: plenty(),
    backgroundRounds: plenty(),
    ...overrides,
  });
}
