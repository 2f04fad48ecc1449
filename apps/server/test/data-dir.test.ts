import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../src/db/client.ts';
import { serverCommand } from '../src/node-flags.ts';
import { freePort } from './test-app.ts';

/**
 * The embedded database's folder under real processes: a second server on the same DATA_DIR is
 * refused, and a server killed with SIGKILL in the middle of writes leaves a folder that the next
 * start recovers by itself, with every committed row.
 */
// Started as `npm start` starts it: the checkout's launch flags and environment (decisions 070, 071).
const launch = serverCommand(path.resolve(import.meta.dirname, '../../..'));
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portico-datadir-'));
const children: ChildProcess[] = [];

function start(port: number): { child: ChildProcess; output: () => string; exited: Promise<number | null> } {
  let out = '';
  const env: Record<string, string | undefined> = {
    ...process.env,
    ...launch.env,
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    IMPORT_CONTENT: 'false',
  };
  delete env.DATABASE_URL;
  const child = spawn(process.execPath, launch.args, {
    env,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
  children.push(child);
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output: () => out, exited };
}

/**
 * Waits until the server answers /readyz, or fails as soon as its process ends. No clock of its
 * own: opening a fresh embedded database takes seconds on a quiet machine and over 80 s on a loaded
 * one, so only the test's timeout (a guard against a hang) bounds the wait.
 */
async function waitReady(port: number, server: { exited: Promise<number | null>; output: () => string }) {
  let ended: number | null | undefined;
  void server.exited.then((code) => (ended = code));
  for (;;) {
    if (ended !== undefined)
      throw new Error(`the server exited (${ended}) before it was ready:\n${server.output()}`);
    try {
      const res = await fetch(`http://127.0.0.1:${port}/readyz`);
      await res.arrayBuffer();
      if (res.ok) return;
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}

afterAll(() => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('DATA_DIR ownership', () => {
  it(
    'refuses a second server on the same folder, then recovers after kill -9',
    // Two starts of the embedded database: minutes on a loaded machine (waitReady).
    { timeout: 600_000 },
    async () => {
      const port = await freePort();
      const first = start(port);
      await waitReady(port, first);

      const secondPort = await freePort();
      const second = start(secondPort);
      expect(await second.exited).toBe(75);
      expect(second.output()).toContain('is in use by another Portico process');

      // Writes in flight: every authorization-info call stores a login state row.
      let committed = 0;
      let writing = true;
      const writer = (async () => {
        for (let i = 0; i < 400; i++) {
          try {
            const res = await fetch(
              `http://127.0.0.1:${port}/openid-connect/authorization-info/generic?returnTo=/n${i}`,
            );
            if (res.ok) committed++;
          } catch {
            break;
          }
        }
        writing = false;
      })();
      // Kill it once some writes are committed and more are in flight (however slow the machine).
      while (writing && committed < 5) await new Promise((r) => setTimeout(r, 20));
      first.child.kill('SIGKILL');
      await first.exited;
      await writer;
      expect(committed).toBeGreaterThan(0);
      expect(fs.existsSync(path.join(dataDir, 'pgdata', 'postmaster.pid'))).toBe(true);

      // The next start must not hang on the stale postmaster.pid.
      const thirdPort = await freePort();
      const third = start(thirdPort);
      await waitReady(thirdPort, third);
      third.child.kill('SIGTERM');
      expect(await third.exited).toBe(0);

      const handle = await openDatabase({ dataDir });
      try {
        const row = await handle.db
          .selectFrom('login_states')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow();
        expect(Number(row.n)).toBeGreaterThanOrEqual(committed);
      } finally {
        await handle.close();
      }
    },
  );
});
