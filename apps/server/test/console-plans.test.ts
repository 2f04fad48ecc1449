import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ConsoleProductListItem, ProductPlan } from '@portico/contracts/console-products';
import { en } from '@portico/contracts/messages';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportCatalogProducts } from '../src/modules/catalog/export.ts';
import { importCatalogContent } from '../src/modules/catalog/importer.ts';
import { TestClient } from './http-client.ts';
import { signedInUser } from './org-fixtures.ts';
import { startTestApp, type TestApp } from './test-app.ts';

/**
 * API managers set the plan each API documentation of a product shows (spec B 2.12 'plan table',
 * catalog README 'Console: API products'): audited, shown by the documentation at once, kept by
 * the imports, written by the export.
 */
const E = en.console.products.errors;
const REPO_CONTENT = path.resolve(import.meta.dirname, '../../../content');
let t: TestApp;
let manager: TestClient;
let admin: TestClient;
let others: TestClient[];
let anonymous: TestClient;

beforeAll(async () => {
  t = await startTestApp();
  manager = await signedInUser(t, 'plans.manager@example.com', { roles: ['api_manager'] });
  admin = await signedInUser(t, 'plans.admin@example.com', { admin: true });
  others = [
    await signedInUser(t, 'plans.dev@example.com'),
    await signedInUser(t, 'plans.editor@example.com', { roles: ['content_editor'] }),
    await signedInUser(t, 'plans.agent@example.com', { roles: ['support_agent'] }),
    await signedInUser(t, 'plans.reviewer@example.com', { roles: ['go_live_reviewer'] }),
  ];
  anonymous = new TestClient(t.baseUrl);
});
afterAll(async () => {
  await t?.close();
});

async function productId(alias: string): Promise<string> {
  const res = await manager.get('/admin-api/catalog/products');
  const body = (await res.json()) as { data: ConsoleProductListItem[] };
  return body.data.find((p) => p.alias === alias)!.id;
}

async function plans(id: string, client = manager): Promise<ProductPlan[]> {
  const res = await client.get(`/admin-api/catalog/products/${id}/plans`);
  expect(res.status).toBe(200);
  return ((await res.json()) as { data: ProductPlan[] }).data;
}

/** The plans' version now (every save names the one it started from). */
async function plansVersion(id: string): Promise<number> {
  const res = await manager.get(`/admin-api/catalog/products/${id}/plans`);
  return ((await res.json()) as { meta: { version: number } }).meta.version;
}

/** A save of the plans, with their current version unless the body names one. */
const put = async (id: string, body: unknown, client = manager) =>
  client.send(
    'PUT',
    `/admin-api/catalog/products/${id}/plans`,
    body && typeof body === 'object' && !('version' in body)
      ? { ...body, version: await plansVersion(id) }
      : body,
    'application/json',
  );

async function publicPlan(alias: string) {
  const res = await fetch(`${t.baseUrl}/jsonapi/node/api_documentation/${alias}`);
  return ((await res.json()) as { data: { attributes: { field_plan: string } } }).data.attributes.field_plan;
}

describe('plans', () => {
  it("lists a product's documentations with their plans, saves them, audits and shows them at once", async () => {
    const id = await productId('fx-rates-api-v2');
    const before = await plans(id);
    expect(before.map((d) => d.alias)).toContain('fx-rates-v2');
    const fx = before.find((d) => d.alias === 'fx-rates-v2')!;
    expect(fx).toMatchObject({ plan: '1000 per hour', edited: false });
    expect(await plans(id, admin)).toEqual(before);

    const res = await put(id, {
      plans: [{ documentation: before[0]!.documentation, plan: '50 per minute' }],
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { data: ProductPlan[] }).data[0]).toMatchObject({
      plan: '50 per minute',
      edited: true,
    });
    expect(await publicPlan('fx-rates-v2')).toBe('50 per minute');
    const { rows } = await sql<{ action: string; after: unknown }>`
      select action, after from audit_log where target_type = 'api_documentation' and target_id = ${fx.documentation}`.execute(
      t.app.db,
    );
    expect(rows.map((r) => r.action)).toEqual(['documentation.plan_updated']);

    // Empty: the default plan.
    await put(id, { plans: [{ documentation: fx.documentation, plan: '' }] });
    expect(await publicPlan('fx-rates-v2')).toBe(en.catalog.defaultPlan);
  });

  it('a save names the version it started from: none is a 428, a stale one a 409 that writes nothing', async () => {
    const id = await productId('payments-api-v1');
    const before = await plans(id);
    const version = await plansVersion(id);
    const body = { plans: [{ documentation: before[0]!.documentation, plan: '7 per second' }] };
    const missing = await manager.send(
      'PUT',
      `/admin-api/catalog/products/${id}/plans`,
      body,
      'application/json',
    );
    expect(missing.status).toBe(428);
    const first = await put(id, { ...body, version });
    expect(first.status).toBe(200);
    expect(first.headers.get('etag')).toBe(`"${version + 1}"`);
    expect(((await first.json()) as { meta: { version: number } }).meta.version).toBe(version + 1);
    const stale = await put(id, {
      plans: [{ documentation: before[0]!.documentation, plan: '8 per second' }],
      version,
    });
    expect(stale.status).toBe(409);
    const conflict = (await stale.json()) as {
      errors: { title: string }[];
      meta: { current: { version: number; plans: ProductPlan[] } };
    };
    expect(conflict.errors[0]!.title).toBe(E.plansStale.replace('{{version}}', String(version + 1)));
    expect(conflict.meta.current.version).toBe(version + 1);
    expect(conflict.meta.current.plans[0]!.plan).toBe('7 per second');
    expect((await plans(id))[0]!.plan).toBe('7 per second');
    // Back as it was.
    const back = await put(id, {
      plans: [{ documentation: before[0]!.documentation, plan: before[0]!.plan }],
    });
    expect(back.status).toBe(200);
  });

  it('refuses a plan with markup or too long, or a documentation of another product, writing nothing', async () => {
    const id = await productId('fx-rates-api-v2');
    const other = (await plans(await productId('payments-api-v1')))[0]!;
    const before = await plans(id);
    for (const [body, pointer, title] of [
      [
        { plans: [{ documentation: before[0]!.documentation, plan: '<b>x</b>' }] },
        '/plans/0/plan',
        undefined,
      ],
      [
        { plans: [{ documentation: before[0]!.documentation, plan: 'x'.repeat(101) }] },
        '/plans/0/plan',
        undefined,
      ],
      [
        { plans: [{ documentation: other.documentation, plan: '1 per day' }] },
        '/plans/0/documentation',
        E.planDocumentationUnknown,
      ],
    ] as const) {
      const res = await put(id, body);
      expect(res.status).toBe(400);
      const err = (await res.json()) as { errors: { title: string; source?: { pointer?: string } }[] };
      expect(err.errors[0]!.source?.pointer).toBe(pointer);
      if (title) expect(err.errors[0]!.title).toBe(title);
    }
    expect(await plans(id)).toEqual(before);
  });

  it('refuses every other role and visitors, changing nothing', async () => {
    const id = await productId('accounts-api-v1');
    const before = await plans(id);
    for (const client of [...others, anonymous]) {
      expect([401, 403]).toContain((await client.get(`/admin-api/catalog/products/${id}/plans`)).status);
      const res = await put(
        id,
        { plans: [{ documentation: before[0]!.documentation, plan: '1 per year' }] },
        client,
      );
      expect(client === anonymous ? [401, 403] : [403]).toContain(res.status);
    }
    expect(await plans(id)).toEqual(before);
  });

  it('the content import keeps a plan set in the console; the export writes it; a fresh import gives it back', async () => {
    const id = await productId('accounts-api-v1');
    const doc = (await plans(id))[0]!;
    await put(id, { plans: [{ documentation: doc.documentation, plan: '7 per second' }] });
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portico-plans-'));
    try {
      fs.cpSync(REPO_CONTENT, dir, { recursive: true });
      const file = path.join(dir, 'catalog', 'documentation.yaml');
      fs.writeFileSync(file, `${fs.readFileSync(file, 'utf8')}\n# changed\n`);
      expect(await importCatalogContent(t.app.db, dir, t.app.config.publicUrl)).toBe('imported');
      expect(await publicPlan(doc.alias)).toBe('7 per second');
      const result = await exportCatalogProducts(t.app.db, dir);
      expect(result.files).toContain('catalog/documentation.yaml');
      const fresh = await startTestApp({ CONTENT_DIR: dir });
      try {
        const res = await fetch(`${fresh.baseUrl}/jsonapi/node/api_documentation/${doc.alias}`);
        const body = (await res.json()) as { data: { attributes: { field_plan: string } } };
        expect(body.data.attributes.field_plan).toBe('7 per second');
      } finally {
        await fresh.close();
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
