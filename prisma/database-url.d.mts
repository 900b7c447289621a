export type DatabaseProvider = "sqlite" | "postgresql";

export const DATABASE_URL_FORMS: string;
export function databaseProvider(url: string): DatabaseProvider;
export function postgresOptions(url: string): { connectionString: string; database: string; schema: string | undefined };
export function withDatabase(connectionString: string, database: string): string;
