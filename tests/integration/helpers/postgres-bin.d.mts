export function findPostgresBin(env?: Record<string, string | undefined>): string | null;
export const POSTGRES_MISSING: string;
