import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../src/db/client.ts';
import { migrateToLatest } from '../src/db/migrate.ts';

/**
 * Global setup of the server-pglite tests: one embedded database, created and migrated once, that
 * every test portal copies (test-app.ts) instead of creating its own. Creating a PGlite folder
 * costs seconds of CPU (initdb in WebAssembly, then every migration); a copy of the closed folder
 * costs milliseconds, which matters on a busy machine. Starting on a fresh folder stays tested by
 * the tests that do it on purpose (data-dir, the import command, several instances).
 */
export default async function setup(project: TestProject): Promise<() => void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portico-template-'));
  const handle = await openDatabase({ dataDir });
  try {
    await migrateToLatest(handle.db);
  } finally {
    await handle.close();
  }
  project.provide('pgliteTemplate', path.join(dataDir, 'pgdata'));
  return () => fs.rmSync(dataDir, { recursive: true, force: true });
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** A migrated, closed PGlite folder to copy; empty when the project has no template. */
    pgliteTemplate: string;
  }
}
