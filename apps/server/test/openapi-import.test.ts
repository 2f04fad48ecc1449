import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { openDatabase } from '../src/db/client.ts';
import { importCatalogContent } from '../src/modules/catalog/importer.ts';
import { importApi, prepareApiImport } from '../src/modules/catalog/import-api.ts';
import { MAX_SOURCE_BYTES } from '../src/openapi/index.ts';
import { catalogDb } from '../src/modules/catalog/tables.ts';
import { createPostgresDatabase, startTestApp, testDbKind, type TestApp } from './test-app.ts';

/** Imports from content/ (idempotent, stable uuids) and from the command line. */

const repoRoot = path.resolve(import.meta.dirname, '../../..');
const run = promisify(execFile);

function copyContent(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portico-content-'));
  for (const sub of ['catalog', 'openapi']) {
    fs.cpSync(path.join(repoRoot, 'content', sub), path.join(dir, sub), { recursive: true });
  }
  return dir;
}

describe('content import', () => {
  let t: TestApp;
  let contentDir: string;
  beforeAll(async () => {
    contentDir = copyContent();
    t = await startTestApp({ CONTENT_DIR: contentDir });
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(contentDir, { recursive: true, force: true });
  });

  const snapshot = async () => {
    const db = catalogDb(t.app.db);
    return {
      products: await db
        .selectFrom('api_products')
        .select(['uuid', 'alias', 'changed'])
        .orderBy('alias')
        .execute(),
      features: await db
        .selectFrom('product_features')
        .select(['uuid', 'title', 'description'])
        .orderBy('id')
        .execute(),
      advantages: await db.selectFrom('product_advantages').select(['uuid', 'title']).orderBy('id').execute(),
      docs: await db
        .selectFrom('api_documentations')
        .select(['uuid', 'alias', 'content_hash'])
        .orderBy('alias')
        .execute(),
    };
  };

  test('a second start with the same files changes nothing', async () => {
    const before = await snapshot();
    expect(before.products.map((p) => p.alias)).toEqual([
      'accounts-api-v0',
      'accounts-api-v1',
      'fx-rates-api-v2',
      'get-token-api',
      'payments-api-v1',
    ]);
    expect(await importCatalogContent(t.app.db, contentDir, t.config.publicUrl)).toBe('unchanged');
    expect(await snapshot()).toEqual(before);
  });

  test('changed files update in place: uuids stay, removed children go, CLI documents stay', async () => {
    const before = await snapshot();
    // A document imported by hand and linked to a content product.
    await importApi(
      t.app.db,
      await prepareApiImport(
        {
          name: 'extra.yaml',
          text: fs.readFileSync(path.join(contentDir, 'openapi/get-token.yaml'), 'utf8'),
        },
        { product: 'accounts-api-v1', alias: 'extra-token', title: 'Extra' },
        t.config.publicUrl,
      ),
    );

    const file = path.join(contentDir, 'catalog/products.yaml');
    const text = fs.readFileSync(file, 'utf8');
    fs.writeFileSync(
      file,
      text
        .replace(
          '<p>Current, savings and card accounts in one format, with IBAN and currency.</p>',
          '<p>Changed.</p><script>x()</script>',
        )
        .replace(/ {6}- title: 99\.95% availability\n {8}description: .*\n/, ''),
    );
    // Files that are not OpenAPI documents are ignored.
    fs.writeFileSync(path.join(contentDir, 'openapi/README.md'), 'not a spec');
    expect(await importCatalogContent(t.app.db, contentDir, t.config.publicUrl)).toBe('imported');
    const after = await snapshot();
    expect(after.products.map((p) => p.uuid)).toEqual(before.products.map((p) => p.uuid));
    const feature = after.features.find((f) => f.title === 'Every account type')!;
    expect(feature.uuid).toBe(before.features.find((f) => f.title === 'Every account type')!.uuid);
    // Sanitized on import.
    expect(feature.description).toBe('<p>Changed.</p>');
    expect(after.advantages.map((a) => a.title)).not.toContain('99.95% availability');
    expect(after.advantages).toHaveLength(before.advantages.length - 1);
    // Unchanged documents were not processed again.
    expect(after.docs.filter((d) => d.alias !== 'extra-token')).toEqual(before.docs);

    const links = await catalogDb(t.app.db)
      .selectFrom('api_product_documentations as pd')
      .innerJoin('api_documentations as d', 'd.id', 'pd.documentation_id')
      .innerJoin('api_products as p', 'p.id', 'pd.product_id')
      .select('d.alias')
      .where('p.alias', '=', 'accounts-api-v1')
      .orderBy('pd.weight')
      .execute();
    expect(links.map((l) => l.alias)).toEqual(['accounts-v1', 'get-token', 'extra-token']);
  });

  test('a broken spec in content/ stops the import with its problems', async () => {
    const broken = copyContent();
    try {
      fs.writeFileSync(
        path.join(broken, 'openapi/get-token.yaml'),
        'openapi: 3.0.3\ninfo:\n  title: Get Token API\n  version: 1\npaths: {}\n',
      );
      await expect(importCatalogContent(t.app.db, broken, t.config.publicUrl)).rejects.toThrow(
        /content\/openapi\/get-token\.yaml: .*\n\s+line 4:\d+, \/info\/version: API version number must be a string/,
      );
    } finally {
      fs.rmSync(broken, { recursive: true, force: true });
    }
  });
});

describe('npm run portal -- import-api', () => {
  let env: Record<string, string>;
  let dataDir: string;
  let drop: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portico-cli-'));
    env = {
      ...(process.env as Record<string, string>),
      DATA_DIR: dataDir,
      PUBLIC_URL: 'https://portal.example',
    };
    delete env.DATABASE_URL;
    if (testDbKind() === 'postgres') {
      const created = await createPostgresDatabase();
      env.DATABASE_URL = created.url;
      drop = created.drop;
    }
  });
  afterAll(async () => {
    await drop?.();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const cli = async (...args: string[]) => {
    try {
      const { stdout, stderr } = await run(
        process.execPath,
        [path.join(repoRoot, 'apps/server/src/cli.ts'), ...args],
        {
          env,
          cwd: repoRoot,
        },
      );
      return { code: 0, stdout, stderr };
    } catch (err) {
      const e = err as { code: number; stdout: string; stderr: string };
      return { code: e.code, stdout: e.stdout, stderr: e.stderr };
    }
  };

  // Two runs of the command, each a Node process that opens (and first creates) the database: a
  // minute on a loaded two-core machine.
  test(
    'imports a Swagger 2.0 file, creates the product, and re-imports idempotently',
    { timeout: 120_000 },
    async () => {
      const file = path.join(repoRoot, 'content/openapi/accounts-v1.yaml');
      const first = await cli('import-api', file, '--product', 'my-accounts-v1', '--alias', 'my-accounts');
      expect(first.code, first.stderr).toBe(0);
      expect(first.stdout).toContain("Imported Accounts API as 'my-accounts' (swagger 2.0 → OpenAPI 3.1)");
      expect(first.stdout).toContain('4 operations in 3 groups: Accounts, Balances, Transactions');
      expect(first.stdout).toContain("Created product 'my-accounts-v1'");
      expect(first.stdout).toContain('https://portal.example/sandbox/my-accounts');

      const second = await cli('import-api', file, '--product', 'my-accounts-v1', '--alias', 'my-accounts');
      expect(second.code, second.stderr).toBe(0);
      expect(second.stdout).toContain("Unchanged: Accounts API as 'my-accounts'");

      const handle = await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir });
      try {
        const row = await catalogDb(handle.db)
          .selectFrom('api_documentations')
          .select(['alias', 'source_spec_version', sql<string>`converted->'servers'->0->>'url'`.as('server')])
          .executeTakeFirstOrThrow();
        expect(row).toEqual({
          alias: 'my-accounts',
          source_spec_version: 'swagger 2.0',
          server: 'https://portal.example/sandbox/my-accounts',
        });
        const links = await catalogDb(handle.db)
          .selectFrom('api_product_documentations')
          .selectAll()
          .execute();
        expect(links).toHaveLength(1);
      } finally {
        await handle.close();
      }
    },
  );

  test('a broken document: every problem with its line, exit status 1', async () => {
    const file = path.join(dataDir, 'broken.yaml');
    fs.writeFileSync(
      file,
      [
        'openapi: 3.1.0',
        'info:',
        '  title: Broken',
        'paths:',
        '  /a:',
        '    get:',
        '      responses:',
        "        '200':",
        '          descriptio: OK',
      ].join('\n'),
    );
    const r = await cli('import-api', file, '--product', 'broken');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('broken.yaml: The document is not a valid OpenAPI description.');
    expect(r.stderr).toContain("line 2:1, /info: must have required property 'version'");
    expect(r.stderr).toContain(
      "line 9:11, /paths/~1a/get/responses/200/descriptio: unknown property 'descriptio'",
    );
  });

  test('a failed import leaves the data folder free: no lock, no stale postmaster.pid', async () => {
    const file = path.join(dataDir, 'not-openapi.yaml');
    fs.writeFileSync(file, 'title: not an OpenAPI document\n');
    const r = await cli('import-api', file, '--product', 'broken');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('not-openapi.yaml:');
    expect(fs.existsSync(path.join(dataDir, 'portico.lock'))).toBe(false);
    expect(fs.existsSync(path.join(dataDir, 'pgdata', 'postmaster.pid'))).toBe(false);
    const handle = await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir });
    try {
      expect(handle.recoveredFromCrash).toBe(false);
    } finally {
      await handle.close();
    }
  });

  test('a refused document never opens the database', async () => {
    // A fresh folder and no DATABASE_URL: opening the database would create DATA_DIR/pgdata.
    const fresh = fs.mkdtempSync(path.join(os.tmpdir(), 'portico-cli-fresh-'));
    const freshEnv: Record<string, string> = { ...env, DATA_DIR: fresh };
    delete freshEnv.DATABASE_URL;
    const inFresh = async (...args: string[]) =>
      run(process.execPath, [path.join(repoRoot, 'apps/server/src/cli.ts'), ...args], {
        env: freshEnv,
        cwd: repoRoot,
      }).then(
        () => ({ code: 0, stderr: '' }),
        (err: { code: number; stderr: string }) => ({ code: err.code, stderr: err.stderr }),
      );
    try {
      const big = path.join(fresh, 'big.json');
      fs.writeFileSync(big, '{');
      fs.truncateSync(big, MAX_SOURCE_BYTES + 1); // sparse: no real 64 MB written
      const tooLarge = await inFresh('import-api', big, '--product', 'big');
      expect(tooLarge.code).toBe(1);
      expect(tooLarge.stderr).toContain('big.json: The document is too large (larger than 64 MB).');

      const invalid = path.join(fresh, 'invalid.json');
      fs.writeFileSync(invalid, '{"openapi": "3.1.0", "info": {"title": "No version"}, "paths": {}}');
      const refused = await inFresh('import-api', invalid, '--product', 'invalid');
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain("must have required property 'version'");

      const badAlias = await inFresh('import-api', invalid, '--product', 'x', '--alias', 'Not an alias!');
      expect(badAlias.code).toBe(1);
      expect(badAlias.stderr).toContain("'Not an alias!' is not a valid documentation alias");

      expect(fs.readdirSync(fresh).sort()).toEqual(['big.json', 'invalid.json']);
    } finally {
      fs.rmSync(fresh, { recursive: true, force: true });
    }
  });

  test('usage errors', async () => {
    expect((await cli('import-api')).code).toBe(2);
    expect((await cli('import-api', 'x.yaml')).stderr).toContain('--product');
    expect((await cli('frobnicate')).stderr).toContain("Unknown command 'frobnicate'");
    expect((await cli('help')).stdout).toContain('import-api <file> --product <alias>');
  });
});
