import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { plainText } from '../src/lib/plain-text.ts';
import {
  RANKED_MATCHES_MAX,
  queryTerms,
  searchDocuments,
  searchIndex,
} from '../src/modules/search/service.ts';
import { startTestApp, type TestApp } from './test-app.ts';

/** The site search index (modules/search/service.ts) on the embedded database and PostgreSQL. */
describe('search index', () => {
  let t: TestApp;
  const uuids = { payments: randomUUID(), accounts: randomUUID(), fx: randomUUID(), old: randomUUID() };
  beforeAll(async () => {
    // No demo content: the index holds only what this test writes.
    // Without the demo content: its articles and pages would be found too.
    t = await startTestApp({ IMPORT_CONTENT: 'false' });
    await searchIndex(t.app.db).upsert([
      {
        type: 'article',
        uuid: uuids.payments,
        title: 'Instant payments are here',
        text: plainText('<p>Send <b>SEPA</b> credit transfers in seconds &amp; track them.</p>'),
        link: '/blog/instant-payments',
        created: '2026-01-10T00:00:00Z',
      },
      {
        type: 'api_endpoint',
        uuid: uuids.accounts,
        title: 'List accounts',
        text: 'Returns the accounts the customer consented to.',
        keywords: 'GET /accounts listAccounts',
        created: '2026-02-01T00:00:00Z',
      },
      {
        type: 'api_product',
        uuid: uuids.fx,
        title: 'FX Rates',
        text: 'Foreign exchange rates for payments abroad.',
        created: '2026-03-01T00:00:00Z',
      },
    ]);
  });
  afterAll(async () => t.close());

  const find = (
    q: string,
    extra: { types?: ('article' | 'api_product' | 'api_endpoint')[]; offset?: number } = {},
  ) => searchDocuments(t.app.db, { q, limit: 10, offset: extra.offset ?? 0, types: extra.types });

  it('finds by prefix and stem, best match first, with a plain-text snippet', async () => {
    const found = await find('paym');
    expect(found.items.map((i) => i.uuid)).toEqual([uuids.payments, uuids.fx]);
    expect(found.count).toBe(2);
    expect(found.items[0]!.description).toContain('Send SEPA credit transfers in seconds & track them.');
  });

  it('needs every term, and filters by type', async () => {
    expect((await find('payments abroad')).items.map((i) => i.uuid)).toEqual([uuids.fx]);
    expect((await find('payments', { types: ['article'] })).items.map((i) => i.uuid)).toEqual([
      uuids.payments,
    ]);
  });

  it('finds endpoints by their hidden keywords (path, operationId)', async () => {
    expect((await find('listAccounts')).items.map((i) => i.uuid)).toEqual([uuids.accounts]);
  });

  it('counts past the last page, and an empty or symbol-only query finds nothing', async () => {
    expect(await find('payments', { offset: 10 })).toEqual({ items: [], count: 2 });
    expect(await find('')).toEqual({ items: [], count: 0 });
    expect(await find(`'":*&|!()`)).toEqual({ items: [], count: 0 });
  });

  it('upsert replaces, remove and retainOnly delete, inside a transaction too', async () => {
    await t.app.db.transaction().execute(async (trx) => {
      await searchIndex(trx).upsert({
        type: 'article',
        uuid: uuids.old,
        title: 'Obsolete card API',
        text: '',
        created: new Date(),
      });
    });
    expect((await find('obsolete')).count).toBe(1);
    await searchIndex(t.app.db).upsert({
      type: 'article',
      uuid: uuids.old,
      title: 'Retired card API',
      text: '',
      created: new Date(),
    });
    expect((await find('obsolete')).count).toBe(0);
    expect((await find('retired')).count).toBe(1);
    await searchIndex(t.app.db).remove('article', uuids.old);
    expect((await find('retired')).count).toBe(0);
    await searchIndex(t.app.db).retainOnly('api_product', []);
    expect((await find('fx')).count).toBe(0);
  });

  it('lists a very common word newest first instead of ranking thousands of matches', async () => {
    const many = Array.from({ length: RANKED_MATCHES_MAX + 1 }, (_, i) => ({
      type: 'article' as const,
      uuid: `00000000-0000-4000-8000-${i.toString(16).padStart(12, '0')}`,
      title: i === 5 ? 'Overdraft overdraft overdraft' : `Note ${i}`,
      text: 'overdraft',
      created: new Date(Date.UTC(2025, 0, 1) + i * 60_000),
    }));
    await searchIndex(t.app.db).upsert(many);
    const found = await find('overdraft');
    expect(found.count).toBe(RANKED_MATCHES_MAX + 1);
    expect(found.items.map((i) => i.title)).toEqual(
      Array.from({ length: 10 }, (_, k) => `Note ${RANKED_MATCHES_MAX - k}`),
    );
    await searchIndex(t.app.db).remove(
      'article',
      many.map((m) => m.uuid),
    );
    expect((await find('overdraft')).count).toBe(0);
  });

  it('extracts query terms safely', () => {
    expect(queryTerms(`Pay-ments & "FX"`)).toEqual(['pay', 'ments', 'fx']);
    expect(plainText('<script>alert(1)</script><p>a&nbsp;b</p>')).toBe('a b');
  });
});
