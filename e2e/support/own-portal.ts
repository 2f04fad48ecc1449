import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

/**
 * A second portal for a test that changes what every other test reads (the catalog: an imported
 * product shows in the product list, its categories, the search), started like the suite's own
 * (start-portal.ts: fresh data folder, demo content) on the port after the suite's, and stopped
 * with SIGTERM so that it removes its folders.
 */
export const ownPortalPort = Number(process.env.E2E_PORT ?? 3457) + 1;
export const ownPortalURL = `http://localhost:${ownPortalPort}`;

export async function startOwnPortal(): Promise<{ close(): Promise<void> }> {
  const root = path.resolve(import.meta.dirname, '../..');
  const child: ChildProcess = spawn(process.execPath, ['e2e/start-portal.ts'], {
    cwd: root,
    stdio: 'ignore',
    env: { ...process.env, PORT: String(ownPortalPort), PUBLIC_URL: ownPortalURL },
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const until = Date.now() + 170_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the second portal ended with ${child.exitCode}`);
    const ready = await fetch(`${ownPortalURL}/readyz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ready) break;
    if (Date.now() > until) {
      child.kill('SIGKILL');
      throw new Error(`the second portal on ${ownPortalURL} was not ready in time`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return {
    async close() {
      child.kill('SIGTERM');
      await exited;
    },
  };
}
