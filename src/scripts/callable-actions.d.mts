export function callableActionIds(manifest: {
  node?: Record<string, { filename?: string }>;
  edge?: Record<string, { filename?: string }>;
}): Set<string>;
export function loadCallableActionIds(distDir: string): Set<string>;
export function actionIdsInForm(form: FormData): string[];
