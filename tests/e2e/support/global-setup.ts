import { startApp } from "./app";
import { startTargets } from "./targets";
import { startWorld } from "./world";
import { sharedAppEnv } from "./env";

/**
 * Starts the local target sites, the Globalping stand-in and the built app, routing the
 * targets' real-looking names to them, and publishes what the specs need.
 */
export default async function globalSetup() {
  const targets = await startTargets();
  const world = await startWorld(targets.names, targets.portsOf);
  const app = await startApp(sharedAppEnv(targets.connectTo, world.url));

  process.env.E2E_BASE_URL = app.baseUrl;
  process.env.E2E_TARGETS = JSON.stringify(targets.names);
  process.env.E2E_CONTROL_URL = targets.controlUrl;
  // For specs that start an app of their own with other settings.
  process.env.E2E_CONNECT_TO = targets.connectTo;
  process.env.E2E_WORLD_URL = world.url;

  return async () => {
    await app.stop();
    await Promise.all([targets.close(), world.close()]);
  };
}
