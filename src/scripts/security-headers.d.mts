export function contentSecurityPolicy(options?: { development?: boolean }): string;
export function securityHeaders(options?: { development?: boolean }): Record<string, string>;
