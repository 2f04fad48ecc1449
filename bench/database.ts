/**
 * Where a server benchmark keeps its data: a temporary DATA_DIR (PGlite), and with
 * BENCH_DATABASE_URL a new database on that PostgreSQL server. `remove()` drops both.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { root } from './support.ts';

export interface BenchDatabase {
  dataDir: string;
  /** Set when the benchmark runs on PostgreSQL. */
  databaseUrl: string | undefined;
  /** 'PostgreSQL 15.x' or 'PGlite 0.5.x', for the report. */
  label: string;
  remove(): Promise<void>;
}

async function query<T extends pg.QueryResultRow>(url: string, text: string): Promise<T[]> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return (await c.query<T>(text)).rows;
  } finally {
    await c.end();
  }
}

/**
 * `postgres`: the server to create the database on (default BENCH_DATABASE_URL); false for PGlite
 * whatever the environment says.
 */
export async function freshDatabase(options: { postgres?: string | false } = {}): Promise<BenchDatabase> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portico-bench-'));
  const adminUrl =
    options.postgres === false ? undefined : (options.postgres ?? process.env.BENCH_DATABASE_URL);
  const remove = async (databaseName?: string) => {
    if (adminUrl && databaseName)
      await query(adminUrl, `drop database if exists ${databaseName} with (force)`);
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  if (!adminUrl) {
    const pglite = JSON.parse(
      fs.readFileSync(path.join(root, 'node_modules/@electric-sql/pglite/package.json'), 'utf8'),
    ) as { version: string };
    return { dataDir, databaseUrl: undefined, label: `PGlite ${pglite.version}`, remove: () => remove() };
  }
  const name = `portico_bench_${randomBytes(5).toString('hex')}`;
  await query(adminUrl, `create database ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const databaseUrl = url.toString();
  const [version] = await query<{ v: string }>(databaseUrl, 'select version() as v');
  return {
    dataDir,
    databaseUrl,
    label: version?.v.split(' on ')[0] ?? 'PostgreSQL',
    remove: () => remove(name),
  };
}
