import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { serverCommand } from '../src/node-flags.ts';
import { SecretKeyMismatchError } from '../src/lib/secret-box.ts';
import { createPostgresDatabase, freePort, testDbKind } from './test-app.ts';

describe('a start whose database cannot be opened', () => {
  it('ends with a message naming the database, not a stack trace', { timeout: 120_000 }, async () => {
    const closedPort = await freePort();
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portico-instances-'));
    try {
      // Started as `npm start` starts it: the checkout's launch flags and environment.
      const launch = serverCommand(path.resolve(import.meta.dirname, '../../..'));
      const env: Record<string, string | undefined> = {
        ...process.env,
        ...launch.env,
        DATA_DIR: dataDir,
        DATABASE_URL: `postgres://portico:hidden@127.0.0.1:${closedPort}/portal`,
        PORT: String(await freePort()),
        HOST: '127.0.0.1',
        LOG_LEVEL: 'silent',
      };
      const result = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
        execFile(process.execPath, launch.args, { env }, (err, _stdout, stderr) =>
          resolve({ code: err ? ((err as { code?: number }).code ?? null) : 0, stderr }),
        );
      });
      expect(result.code).toBe(69);
      expect(result.stderr.trim()).toBe(
        `Cannot open PostgreSQL at 127.0.0.1:${closedPort}/portal: connect ECONNREFUSED 127.0.0.1:${closedPort}`,
      );
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('a start that fails half-way', () => {
  it('closes what it opened: the data folder is left unlocked', { timeout: 120_000 }, async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portico-instances-'));
    const created = testDbKind() === 'postgres' ? await createPostgresDatabase() : undefined;
    const configWith = (secretKey: string) =>
      loadConfig({
        NODE_ENV: 'test',
        DATA_DIR: dataDir,
        ...(created ? { DATABASE_URL: created.url } : {}),
        LOG_LEVEL: 'silent',
        IMPORT_CONTENT: 'false',
        SECRET_KEY: secretKey,
      });
    try {
      const first = await buildApp({
        config: configWith('the-first-key-0123456789abcdefghij'),
        logger: false,
      });
      await first.close();
      // The stored signing keys do not open with another key: the start fails after the database opened.
      await expect(
        buildApp({ config: configWith('another-key-0123456789abcdefghijkl'), logger: false }),
      ).rejects.toThrow(SecretKeyMismatchError);
      expect(fs.existsSync(path.join(dataDir, 'portico.lock'))).toBe(false);
      expect(fs.existsSync(path.join(dataDir, 'pgdata', 'postmaster.pid'))).toBe(false);
    } finally {
      await created?.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
