import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { inject } from 'vitest';
import { buildApp, type BuildOptions } from '../src/app.ts';
import { loadConfig, type Config } from '../src/config.ts';
import { freePort } from './free-port.ts';
import { createPostgresDatabase } from './postgres-databases.ts';

/**
 * A real portal for a test file: its own database (a fresh PGlite folder, or a fresh database on
 * the PostgreSQL server of TEST_DATABASE_URL), listening on a free loopback port so that tests talk
 * to it over real HTTP.
 */
export interface TestApp {
  app: FastifyInstance;
  config: Config;
  baseUrl: string;
  close(): Promise<void>;
}

export function testDbKind(): 'pglite' | 'postgres' {
  return process.env.PORTICO_TEST_DB === 'postgres' ? 'postgres' : 'pglite';
}

export { createPostgresDatabase, freePort };

export async function startTestApp(
  env: Record<string, string> = {},
  /** Adds test-only routes before the app starts listening. */
  extend?: (app: FastifyInstance) => void,
  /** Told of every route the portal adds (see BuildOptions.onRoute). */
  onRoute?: BuildOptions['onRoute'],
): Promise<TestApp> {
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portico-test-'));
  let dropDb: (() => Promise<void>) | undefined;
  const vars: Record<string, string> = {
    NODE_ENV: 'test',
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    ...env,
  };
  // A DATABASE_URL given by the test: another instance of a portal it already started.
  if (testDbKind() === 'postgres' && !env.DATABASE_URL) {
    // A copy of the migrated database made once for the whole run (postgres-template.ts).
    const created = await createPostgresDatabase(inject('postgresTemplate'));
    vars.DATABASE_URL = created.url;
    dropDb = created.drop;
  } else if (!env.DATABASE_URL && !env.DATA_DIR) {
    // A copy of the migrated database made once for the whole run (pglite-template.ts).
    const template = inject('pgliteTemplate');
    if (template) fs.cpSync(template, path.join(dataDir, 'pgdata'), { recursive: true });
  }
  const config = loadConfig(vars);
  const app = await buildApp({ config, logger: false, onRoute });
  extend?.(app);
  await app.listen({ port, host: '127.0.0.1' });
  return {
    app,
    config,
    baseUrl: `http://127.0.0.1:${port}`,
    async close() {
      await app.close();
      await dropDb?.();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Two portals on one PostgreSQL database, as several instances behind one address. */
export interface TwoInstances {
  /** The first: it created the database and imported the content. */
  a: TestApp;
  /** The second: same database and SECRET_KEY, no import of its own. */
  b: TestApp;
  close(): Promise<void>;
}

/**
 * Starts two instances on one database (PostgreSQL only: an embedded database belongs to one
 * process). They share SECRET_KEY, so a session cookie of one is valid on the other; `env` goes to
 * both, `envOfB` to the second only. `close` stops the second first: the first drops the database.
 */
export async function startTwoInstances(
  env: Record<string, string> = {},
  envOfB: Record<string, string> = {},
): Promise<TwoInstances> {
  const a = await startTestApp({ SECRET_KEY: randomBytes(32).toString('hex'), ...env });
  let b: TestApp;
  try {
    b = await startTestApp({
      ...env,
      DATABASE_URL: a.config.databaseUrl!,
      SECRET_KEY: a.config.secretKey!,
      IMPORT_CONTENT: 'false',
      ...envOfB,
    });
  } catch (err) {
    await a.close();
    throw err;
  }
  return {
    a,
    b,
    async close() {
      await b.close();
      await a.close();
    },
  };
}
