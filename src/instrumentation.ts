// Next runs register() once when its server starts, before the first request.
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { startServer } = await import("./server/serving/startup");
  await startServer();
}
