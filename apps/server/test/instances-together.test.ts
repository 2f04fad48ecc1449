import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { SecretKeyMismatchError } from '../src/lib/secret-box.ts';
import { createPostgresDatabase } from './test-app.ts';

/**
 * Several instances of the portal started together on one empty PostgreSQL database (a rolling
 * deployment, or `docker compose up --scale`): every one comes up, the migrations run once and the
 * demo content exists once. The embedded database has one owner per folder (data-dir.test.ts).
 */
describe('instances started together on one database', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  async function instance(
    databaseUrl: string,
    secretKey = 'instances-test-secret-key-0123456789',
  ): Promise<FastifyInstance> {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portico-instances-'));
    const config = loadConfig({
      NODE_ENV: 'test',
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl,
      LOG_LEVEL: 'silent',
      IMPORT_CONTENT: 'true',
      // Instances on one database share the key that seals its secrets.
      SECRET_KEY: secretKey,
    });
    const app = await buildApp({ config, logger: false });
    cleanups.push(async () => {
      await app.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    });
    return app;
  }

  it(
    'three instances on a fresh database all start, and the content exists once',
    { timeout: 240_000 },
    async () => {
      const database = await createPostgresDatabase();
      cleanups.push(database.drop);
      const started = await Promise.allSettled([
        instance(database.url),
        instance(database.url),
        instance(database.url),
      ]);
      for (const s of started) expect(s.status === 'rejected' ? s.reason : 'started').toBe('started');
      const [app] = started.map((s) => (s as PromiseFulfilledResult<FastifyInstance>).value);
      const db = app!.db;
      const count = async (table: string) =>
        (await sql<{ n: number }>`select count(*)::int as n from ${sql.table(table)}`.execute(db)).rows[0]!.n;
      const TABLES = [
        'users',
        'api_documentations',
        'api_products',
        'organizations',
        'pages',
        'applications',
      ] as const;
      const counts = async () =>
        Object.fromEntries(await Promise.all(TABLES.map(async (table) => [table, await count(table)])));
      const once = await counts();
      // A fourth start on the same database imports nothing new.
      await instance(database.url);
      expect(await counts()).toEqual(once);
      expect(once.users).toBeGreaterThan(0);
      expect(once.api_documentations).toBeGreaterThan(0);
      // One that does not share the key says so.
      await expect(instance(database.url, 'another-secret-key-0123456789abcdef')).rejects.toThrow(
        SecretKeyMismatchError,
      );
    },
  );
});
