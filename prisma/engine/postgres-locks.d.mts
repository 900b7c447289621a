export const MIGRATE_LOCK_KEY: number;
export function isEngineLockRequest(sql: string): boolean;
export function holdPgMigrationLock(connectionString: string): Promise<void>;
export function releasePgMigrationLocks(): void;
