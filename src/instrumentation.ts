// Runs once when the server starts: a bad environment or TESTERS_FILE stops start-up with a
// message naming the variable or field, instead of surfacing on the first visitor's check.
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const [{ rememberStartContext }, { formatAbortReasonStacks }] = await Promise.all([
    import("./server/async-context"),
    import("./server/abort-stacks"),
  ]);
  // Both keep renders from holding on to each other after they end (see each file).
  rememberStartContext();
  formatAbortReasonStacks();
  const { validateStartupConfig } = await import("./server/startup");
  validateStartupConfig();
  // Lets the front door (src/scripts/start.mjs) admit a status page view before Next renders it.
  const { installFrontDoorAdmission } = await import("./server/front-door-admission");
  installFrontDoorAdmission();
}
