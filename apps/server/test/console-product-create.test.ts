import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type {
  ConsoleChangelogEntry,
  ConsoleProduct,
  ConsoleProductListItem,
  ProductCreate,
} from '@portico/contracts/console-products';
import { format } from '@portico/contracts/format';
import { en } from '@portico/contracts/messages';
import { sql } from 'kysely';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportCatalogProducts } from '../src/modules/catalog/export.ts';
import { importCatalogContent } from '../src/modules/catalog/importer.ts';
import { catalogDb } from '../src/modules/catalog/tables.ts';
import { createApp, subscription } from './applications-fixtures.ts';
import { TestClient } from './http-client.ts';
import { createOrg, signedInUser } from './org-fixtures.ts';
import { startTestApp, type TestApp } from './test-app.ts';

/**
 * API managers create and delete products and keep their changelogs in the console (issue 27,
 * catalog README 'Console: API products'): checked aliases, audited, shown by the catalog and the
 * search at once, kept by the content import and written by the export (a fresh import of the
 * export gives the same product and changelog).
 */
const E = en.console.products.errors;
const REPO_CONTENT = path.resolve(import.meta.dirname, '../../../content');
let t: TestApp;
let manager: TestClient;
let admin: TestClient;
let developer: TestClient;
let others: TestClient[];
let anonymous: TestClient;

beforeAll(async () => {
  t = await startTestApp();
  manager = await signedInUser(t, 'create.manager@example.com', { roles: ['api_manager'] });
  admin = await signedInUser(t, 'create.admin@example.com', { admin: true });
  developer = await signedInUser(t, 'create.dev@example.com');
  others = [
    developer,
    await signedInUser(t, 'create.editor@example.com', { roles: ['content_editor'] }),
    await signedInUser(t, 'create.agent@example.com', { roles: ['support_agent'] }),
    await signedInUser(t, 'create.reviewer@example.com', { roles: ['go_live_reviewer'] }),
  ];
  anonymous = new TestClient(t.baseUrl);
});
afterAll(async () => {
  await t?.close();
});

interface ErrorBody {
  errors: { status: string; code: string; title: string; source?: { pointer?: string } }[];
  meta?: { current: { version: number }; changes: { field: string }[] };
}

async function json<T>(res: Response): Promise<T> {
  const text = await res.text();
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new Error(`not JSON (${res.status}): ${text}`);
  }
}

const NEW: ProductCreate = {
  alias: 'loans-api-v1',
  productVersion: '1.0',
  title: 'Loans API',
  label: 'NEW',
  description: '<p>Loan offers <script>alert(1)</script>for customers.</p>',
  weight: 3,
  category: null,
  commercial: false,
  deprecated: false,
  successor: null,
  retired: false,
  features: [{ title: 'Offers', description: '<p>Instant offers</p>', icon: null }],
  advantages: [{ title: 'Fast', description: 'In seconds' }],
  related: [],
};

const create = (body: Record<string, unknown>, client = manager) =>
  client.send('POST', '/admin-api/catalog/products', body, 'application/json');

async function created(res: Response): Promise<ConsoleProduct> {
  const body = await json<{ data: ConsoleProduct } & ErrorBody>(res);
  expect(res.status, JSON.stringify(body)).toBe(201);
  return body.data;
}

const remove = (id: string, client = manager, headers: Record<string, string> = {}) =>
  client.request(`/admin-api/catalog/products/${id}`, {
    method: 'DELETE',
    headers: { 'x-csrf-token': client.csrfToken ?? '', ...headers },
  });

async function list(): Promise<ConsoleProductListItem[]> {
  const res = await manager.get('/admin-api/catalog/products');
  expect(res.status).toBe(200);
  return (await json<{ data: ConsoleProductListItem[] }>(res)).data;
}

async function productCount() {
  const { rows } = await sql<{ n: string | number }>`select count(*) as n from api_products`.execute(
    t.app.db,
  );
  return Number(rows[0]!.n);
}

async function auditActions(targetId: string) {
  const { rows } = await sql<{ action: string; actor_email: string | null }>`
    select action, actor_email from audit_log where target_id = ${targetId} order by id`.execute(t.app.db);
  return rows;
}

async function searchTitle(uuid: string) {
  const { rows } = await sql<{
    title: string;
  }>`select title from search_documents where type = 'api_product' and langcode = 'en' and uuid = ${uuid}`.execute(
    t.app.db,
  );
  return rows[0]?.title;
}

const changelogPath = (productId: string, entryId?: string) =>
  `/admin-api/catalog/products/${productId}/changelog${entryId ? `/${entryId}` : ''}`;

async function entries(productId: string): Promise<ConsoleChangelogEntry[]> {
  const res = await manager.get(changelogPath(productId));
  expect(res.status).toBe(200);
  return (await json<{ data: ConsoleChangelogEntry[] }>(res)).data;
}

/** The changelog the public product page reads. */
async function publicChangelog(productId: string) {
  const res = await fetch(`${t.baseUrl}/jsonapi/node/change_log?filter[field_product.id]=${productId}`);
  expect(res.status).toBe(200);
  const body = (await res.json()) as {
    data: {
      id: string;
      attributes: {
        field_version: string;
        field_release_date: string | null;
        field_notes: { processed: string };
      };
    }[];
  };
  return body.data.map((d) => ({
    id: d.id,
    version: d.attributes.field_version,
    date: d.attributes.field_release_date,
    html: d.attributes.field_notes.processed,
  }));
}

describe('creating a product', () => {
  it('creates it with its fields, audits it, and the catalog and the search show it at once', async () => {
    const payments = (await list()).find((p) => p.alias === 'payments-api-v1')!;
    const p = await created(await create({ ...NEW, related: [payments.id] }));
    expect(p).toMatchObject({
      alias: 'loans-api-v1',
      productVersion: '1.0',
      title: 'Loans API',
      label: 'NEW',
      weight: 3,
      version: 1,
      related: [payments.id],
      description: '<p>Loan offers for customers.</p>',
      imageUrl: '/catalog/generated-images/loans-api-v1.svg',
    });
    expect(p.editedAt).not.toBeNull();
    const res = await fetch(`${t.baseUrl}/jsonapi/node/api_product/${p.id}`);
    expect(res.status).toBe(200);
    const doc = (await res.json()) as { data: { attributes: Record<string, unknown> } };
    expect(doc.data.attributes).toMatchObject({ title: 'Loans API', path: { alias: '/loans-api-v1' } });
    const image = await fetch(`${t.baseUrl}/catalog/generated-images/loans-api-v1.svg`);
    expect(image.status).toBe(200);
    expect(await searchTitle(p.id)).toBe('Loans API');
    expect(await auditActions(p.id)).toEqual([
      { action: 'product.created', actor_email: 'create.manager@example.com' },
    ]);
    expect((await list()).map((x) => x.alias)).toContain('loans-api-v1');

    // Without a weight it goes last.
    const last = await created(await create({ ...NEW, alias: 'loans-api-v2', weight: undefined }, admin));
    expect(last.weight).toBe(Math.max(...(await list()).map((x) => x.weight)));
    expect((await remove(last.id)).status).toBe(204);
  });

  it('refuses an alias taken, reserved or malformed, and bad fields, writing nothing', async () => {
    const before = await productCount();
    const cases: [Record<string, unknown>, number, string, string | undefined][] = [
      [{ alias: 'accounts-api-v1' }, 409, '/alias', E.aliasTaken],
      [{ alias: 'admin' }, 400, '/alias', E.aliasReserved],
      [{ alias: 'documentation' }, 400, '/alias', E.aliasReserved],
      [{ alias: 'apiproducts' }, 400, '/alias', E.aliasReserved],
      [{ alias: 'search' }, 400, '/alias', E.aliasReserved],
      [{ alias: 'api' }, 400, '/alias', E.aliasReserved],
      [{ alias: 'Bad Alias' }, 400, '/alias', E.aliasInvalid],
      [{ alias: 'double--dash' }, 400, '/alias', E.aliasInvalid],
      [{ alias: 'x'.repeat(200) }, 400, '/alias', undefined],
      [{ alias: 'fine-one', title: ' ' }, 400, '/title', undefined],
      [
        { alias: 'fine-one', category: '00000000-0000-4000-8000-000000000000' },
        400,
        '/category',
        E.categoryUnknown,
      ],
      [
        { alias: 'fine-one', successor: '00000000-0000-4000-8000-000000000000', deprecated: true },
        400,
        '/successor',
        E.successorUnknown,
      ],
      [
        { alias: 'fine-one', related: ['00000000-0000-4000-8000-000000000000'] },
        400,
        '/related/0',
        E.relatedUnknown,
      ],
      [{ alias: 'fine-one', extra: 1 }, 400, '', undefined],
    ];
    for (const [changes, status, pointer, title] of cases) {
      const res = await create({ ...NEW, ...changes });
      const body = await json<ErrorBody>(res);
      expect(res.status, JSON.stringify(changes)).toBe(status);
      if (pointer) expect(body.errors[0]!.source?.pointer, JSON.stringify(changes)).toBe(pointer);
      if (title) expect(body.errors[0]!.title).toBe(title);
    }
    // Upper case is taken as lower case.
    const res = await create({ ...NEW, alias: 'ACCOUNTS-API-V1' });
    expect(res.status).toBe(409);
    expect(await productCount()).toBe(before);
  });
});

describe('deleting a product', () => {
  it('deletes a product without subscriptions; a subscribed one is a 409 saying to retire it', async () => {
    const p = await created(await create({ ...NEW, alias: 'short-lived-api' }));
    const org = await createOrg(developer, 'Delete test org');
    const app = await createApp(developer, org.id);
    const sub = await subscription(developer, 'subscribe', app.uuid, p.id);
    expect(sub.status, await sub.clone().text()).toBeLessThan(300);

    const refused = await remove(p.id);
    expect(refused.status).toBe(409);
    expect((await json<ErrorBody>(refused)).errors[0]!.title).toBe(format(E.hasSubscriptions, { count: 1 }));
    expect((await list()).find((x) => x.id === p.id)).toBeDefined();

    // A stale If-Match is a 409 too.
    expect((await subscription(developer, 'unsubscribe', app.uuid, p.id)).status).toBeLessThan(300);
    const stale = await remove(p.id, manager, { 'if-match': '"99"' });
    expect(stale.status).toBe(409);
    expect((await json<ErrorBody>(stale)).meta!.current.version).toBe(p.version);

    const done = await remove(p.id, manager, { 'if-match': `"${p.version}"` });
    expect(done.status).toBe(204);
    expect((await list()).find((x) => x.id === p.id)).toBeUndefined();
    expect((await fetch(`${t.baseUrl}/jsonapi/node/api_product/${p.id}`)).status).toBe(404);
    expect(await searchTitle(p.id)).toBeUndefined();
    expect((await auditActions(p.id)).map((a) => a.action)).toEqual(['product.created', 'product.deleted']);
    expect((await remove(p.id)).status).toBe(404);
  });
});

describe('the changelog', () => {
  it('adds, edits and deletes entries in Markdown; the product page shows them at once; audited', async () => {
    const p = (await list()).find((x) => x.alias === 'loans-api-v1')!;
    const add = await manager.send(
      'POST',
      changelogPath(p.id),
      {
        releaseVersion: '1.1',
        releaseDate: '2026-11-30',
        notes: '- **Offers** in EUR\n- <script>x()</script>Fix',
      },
      'application/json',
    );
    const entry = (await json<{ data: ConsoleChangelogEntry }>(add)).data;
    expect(add.status).toBe(201);
    expect(entry).toMatchObject({ releaseVersion: '1.1', releaseDate: '2026-11-30', version: 1 });
    expect(entry.html).toContain('<strong>Offers</strong>');
    expect(entry.html).not.toContain('script');
    expect(await publicChangelog(p.id)).toEqual([
      { id: entry.id, version: '1.1', date: '2026-11-30', html: entry.html },
    ]);

    const second = await manager.send(
      'POST',
      changelogPath(p.id),
      { releaseVersion: '1.2', releaseDate: null, notes: 'Later' },
      'application/json',
    );
    expect(second.status).toBe(201);
    const later = (await json<{ data: ConsoleChangelogEntry }>(second)).data;
    expect((await entries(p.id)).map((e) => e.releaseVersion)).toEqual(['1.2', '1.1']);

    const edit = await manager.send(
      'PATCH',
      changelogPath(p.id, entry.id),
      { releaseVersion: '1.1.1', releaseDate: '2026-12-01', notes: 'Edited *now*', version: 1 },
      'application/json',
    );
    const edited = (await json<{ data: ConsoleChangelogEntry }>(edit)).data;
    expect(edit.status).toBe(200);
    expect(edited).toMatchObject({ releaseVersion: '1.1.1', notes: 'Edited *now*', version: 2 });
    expect((await publicChangelog(p.id)).find((e) => e.id === entry.id)!.html).toContain('<em>now</em>');

    const stale = await manager.send(
      'PATCH',
      changelogPath(p.id, entry.id),
      { releaseVersion: '1.1.2', releaseDate: null, notes: 'Mine', version: 1 },
      'application/json',
    );
    expect(stale.status).toBe(409);
    const conflict = await json<ErrorBody>(stale);
    expect(conflict.meta!.current.version).toBe(2);
    expect(conflict.meta!.changes.map((c) => c.field)).toEqual(['releaseVersion', 'releaseDate', 'notes']);

    const noVersion = await manager.send(
      'PATCH',
      changelogPath(p.id, entry.id),
      { releaseVersion: '1.1.2', notes: '' },
      'application/json',
    );
    expect(noVersion.status).toBe(428);
    for (const bad of [
      { releaseVersion: '', notes: '' },
      { releaseVersion: '2', releaseDate: '2026-02-30', notes: '' },
      { releaseVersion: '2', releaseDate: 'tomorrow', notes: '' },
      { releaseVersion: '2', notes: 'x'.repeat(50_001) },
    ]) {
      const res = await manager.send('POST', changelogPath(p.id), bad, 'application/json');
      expect(res.status, JSON.stringify(bad).slice(0, 80)).toBe(400);
    }
    const gone = await manager.send(
      'POST',
      changelogPath('00000000-0000-4000-8000-000000000000'),
      { releaseVersion: '1', notes: '' },
      'application/json',
    );
    expect(gone.status).toBe(404);

    const del = await manager.request(changelogPath(p.id, later.id), {
      method: 'DELETE',
      headers: { 'x-csrf-token': manager.csrfToken ?? '', 'if-match': '"1"' },
    });
    expect(del.status).toBe(204);
    expect((await publicChangelog(p.id)).map((e) => e.version)).toEqual(['1.1.1']);
    expect((await auditActions(p.id)).map((a) => a.action)).toEqual([
      'product.created',
      'changelog.created',
      'changelog.created',
      'changelog.updated',
      'changelog.deleted',
    ]);
  });

  it('refuses every other role and visitors, changing nothing', async () => {
    const p = (await list()).find((x) => x.alias === 'loans-api-v1')!;
    const before = await entries(p.id);
    const entry = before[0]!;
    const products = await productCount();
    for (const client of [...others, anonymous]) {
      const calls = [
        await client.get(changelogPath(p.id)),
        await client.send(
          'POST',
          changelogPath(p.id),
          { releaseVersion: '9', notes: 'x' },
          'application/json',
        ),
        await client.send(
          'PATCH',
          changelogPath(p.id, entry.id),
          { releaseVersion: '9', notes: 'x', version: entry.version },
          'application/json',
        ),
        await client.request(changelogPath(p.id, entry.id), {
          method: 'DELETE',
          headers: { 'x-csrf-token': client.csrfToken ?? '' },
        }),
        await create({ ...NEW, alias: 'hijack-api' }, client),
        await remove(p.id, client),
      ];
      for (const res of calls) expect([401, 403]).toContain(res.status);
      const forbidden = calls.filter((r) => r.status === 403);
      if (client !== anonymous) expect(forbidden.length).toBe(calls.length);
    }
    expect(await entries(p.id)).toEqual(before);
    expect(await productCount()).toBe(products);
  });
});

describe('the content import and the export', () => {
  it('keeps a console-created product and a console-edited changelog; the export writes both; a fresh import gives them back', async () => {
    const p = (await list()).find((x) => x.alias === 'loans-api-v1')!;
    const accounts = (await list()).find((x) => x.alias === 'accounts-api-v1')!;
    // A changelog entry on a product of the files.
    const add = await manager.send(
      'POST',
      changelogPath(accounts.id),
      { releaseVersion: '1.0.1', releaseDate: '2026-12-02', notes: 'Console *entry*' },
      'application/json',
    );
    expect(add.status).toBe(201);
    const accountsLog = await entries(accounts.id);

    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portico-create-'));
    try {
      fs.cpSync(REPO_CONTENT, dir, { recursive: true });
      // A changed file makes the import run: the console's product and changelog stay.
      const file = path.join(dir, 'catalog', 'products.yaml');
      fs.writeFileSync(file, `${fs.readFileSync(file, 'utf8')}\n# changed\n`);
      expect(await importCatalogContent(t.app.db, dir, t.app.config.publicUrl)).toBe('imported');
      expect((await list()).find((x) => x.alias === 'loans-api-v1')).toBeDefined();
      expect(await entries(accounts.id)).toEqual(accountsLog);
      const loansLog = await entries(p.id);

      const result = await exportCatalogProducts(t.app.db, dir);
      expect(result.written).toEqual(expect.arrayContaining(['loans-api-v1', 'accounts-api-v1']));
      expect(result.files).toEqual(expect.arrayContaining(['catalog/console.yaml', 'catalog/products.yaml']));
      expect(result.skipped).toEqual([]);
      const written = parse(fs.readFileSync(path.join(dir, 'catalog', 'console.yaml'), 'utf8')) as {
        products: { alias: string }[];
      };
      expect(written.products.map((x) => x.alias)).toEqual(['loans-api-v1']);

      // A second export changes nothing in console.yaml (the product is now in it).
      const again = fs.readFileSync(path.join(dir, 'catalog', 'console.yaml'), 'utf8');
      await exportCatalogProducts(t.app.db, dir);
      expect(fs.readFileSync(path.join(dir, 'catalog', 'console.yaml'), 'utf8')).toBe(again);

      const fresh = await startTestApp({ CONTENT_DIR: dir });
      try {
        const named = async (app: TestApp, alias: string) => {
          const c = catalogDb(app.app.db);
          const row = await c
            .selectFrom('api_products as p')
            .select([
              'p.id',
              'p.title',
              'p.label',
              'p.version',
              'p.description',
              'p.weight',
              'p.image_url',
              'p.commercial',
            ])
            .where('p.alias', '=', alias)
            .executeTakeFirstOrThrow();
          const log = await c
            .selectFrom('change_log_entries')
            .select(['version', 'release_date', 'notes'])
            .where('product_id', '=', row.id)
            .orderBy('version')
            .execute();
          const features = await c
            .selectFrom('product_features')
            .select(['title', 'description'])
            .where('product_id', '=', row.id)
            .orderBy('weight')
            .execute();
          const { id: _id, ...fields } = row;
          return {
            ...fields,
            features,
            log: log.map((e) => ({
              ...e,
              release_date: String(
                e.release_date instanceof Date ? e.release_date.toISOString().slice(0, 10) : e.release_date,
              ),
            })),
          };
        };
        const mine = await named(t, 'loans-api-v1');
        expect(mine.log.map((e) => e.version)).toEqual(loansLog.map((e) => e.releaseVersion).sort());
        expect(await named(fresh, 'loans-api-v1')).toEqual(mine);
        expect(await named(fresh, 'accounts-api-v1')).toEqual(await named(t, 'accounts-api-v1'));
      } finally {
        await fresh.close();
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
