export function decodablePath(target: string): string;
