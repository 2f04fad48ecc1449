import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { plainText } from '../src/lib/plain-text.ts';
import {
  SEARCH_RESULTS_MAX,
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
    // GET /phpsdk/search serves at most 20 results here (the service's default is 1,000).
    t = await startTestApp({ IMPORT_CONTENT: 'false', SEARCH_RESULTS_MAX: '20' });
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
    extra: {
      types?: ('article' | 'api_product' | 'api_endpoint')[];
      offset?: number;
      maxResults?: number;
    } = {},
  ) =>
    searchDocuments(t.app.db, {
      q,
      limit: 10,
      offset: extra.offset ?? 0,
      types: extra.types,
      maxResults: extra.maxResults,
    });

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
    expect(await find('payments', { offset: 10 })).toEqual({ items: [], count: 2, countExact: true });
    expect(await find('')).toEqual({ items: [], count: 0, countExact: true });
    expect(await find(`'":*&|!()`)).toEqual({ items: [], count: 0, countExact: true });
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

  /** `n` notes that all hold 'overdraft', one minute apart: note 0 is the oldest. */
  function overdraftNotes(n: number, titled: number[] = []) {
    return Array.from({ length: n }, (_, i) => ({
      type: 'article' as const,
      uuid: `00000000-0000-4000-8000-${i.toString(16).padStart(12, '0')}`,
      title: titled.includes(i) ? `Overdraft fees, part ${i}` : `Note ${i}`,
      text: i % 2 === 0 ? 'overdraft' : 'overdraft overdraft overdraft limits',
      created: new Date(Date.UTC(2025, 0, 1) + i * 60_000),
    }));
  }
  const noteTitles = (from: number, count: number) =>
    Array.from({ length: count }, (_, k) => `Note ${from - k}`);

  it('counts at most SEARCH_RESULTS_MAX matches and says when there are more', async () => {
    const many = overdraftNotes(SEARCH_RESULTS_MAX + 1);
    await searchIndex(t.app.db).upsert(many);
    try {
      const found = await find('overdraft');
      expect(found.count).toBe(SEARCH_RESULTS_MAX);
      expect(found.countExact).toBe(false);
      // Newest first past the cap (no title holds the word).
      expect(found.items.map((i) => i.title)).toEqual(noteTitles(SEARCH_RESULTS_MAX, 10));
      // The last page served ends at the cap, and nothing is served past it.
      const last = await find('overdraft', { offset: SEARCH_RESULTS_MAX - 5 });
      expect(last.items.map((i) => i.title)).toEqual(noteTitles(5, 5));
      expect(await find('overdraft', { offset: SEARCH_RESULTS_MAX })).toEqual({
        items: [],
        count: SEARCH_RESULTS_MAX,
        countExact: false,
      });
      // One match fewer: an exact count.
      await searchIndex(t.app.db).remove('article', many[0]!.uuid);
      expect(await find('overdraft', { offset: SEARCH_RESULTS_MAX })).toEqual({
        items: [],
        count: SEARCH_RESULTS_MAX,
        countExact: true,
      });
    } finally {
      await searchIndex(t.app.db).remove(
        'article',
        many.map((m) => m.uuid),
      );
    }
    expect((await find('overdraft')).count).toBe(0);
  });

  it('past the cap, title matches come first, then the rest newest first, page after page', async () => {
    const notes = overdraftNotes(30, [3, 7]);
    await searchIndex(t.app.db).upsert(notes);
    try {
      const pages = await Promise.all(
        [0, 10, 20].map((offset) => find('overdraft', { offset, maxResults: 25 })),
      );
      expect(pages.map((p) => [p.count, p.countExact])).toEqual([
        [25, false],
        [25, false],
        [25, false],
      ]);
      const titles = pages.flatMap((p) => p.items.map((i) => i.title));
      // Title matches first (the newer first: they rank alike), then the others newest first,
      // each once, and no more than 25.
      expect(titles).toEqual(
        [
          'Overdraft fees, part 7',
          'Overdraft fees, part 3',
          ...noteTitles(29, 30).filter((title) => title !== 'Note 7' && title !== 'Note 3'),
        ].slice(0, 25),
      );
      expect(new Set(titles).size).toBe(25);

      // Within the cap every match is ranked: title matches, then three mentions over one.
      const ranked = await find('overdraft', { maxResults: 30 });
      expect(ranked).toMatchObject({ count: 30, countExact: true });
      expect(ranked.items.map((i) => i.title)).toEqual([
        'Overdraft fees, part 7',
        'Overdraft fees, part 3',
        'Note 29',
        'Note 27',
        'Note 25',
        'Note 23',
        'Note 21',
        'Note 19',
        'Note 17',
        'Note 15',
      ]);
    } finally {
      await searchIndex(t.app.db).remove(
        'article',
        notes.map((m) => m.uuid),
      );
    }
  });

  it('GET /phpsdk/search states the count rule in meta and links no page past the cap', async () => {
    const notes = overdraftNotes(25);
    await searchIndex(t.app.db).upsert(notes);
    try {
      const get = async (query: string) => {
        const res = await fetch(`${t.baseUrl}/phpsdk/search?q=overdraft&pageSize=10&${query}`);
        expect(res.status).toBe(200);
        return (await res.json()) as {
          data: { title: string }[];
          meta: { count: number; countExact: boolean; pageOffset: number };
          links: { next?: { href: string }; prev?: { href: string } };
        };
      };
      const second = await get('pageOffset=10');
      expect(second.meta).toMatchObject({ count: 20, countExact: false, pageOffset: 10 });
      expect(second.data).toHaveLength(10);
      expect(second.links.next).toBeUndefined();
      // Past the cap: no results, and the way back leads to the last page that has some.
      const beyond = await get('pageOffset=40');
      expect(beyond.data).toEqual([]);
      expect(beyond.meta).toMatchObject({ count: 20, countExact: false });
      expect(beyond.links.next).toBeUndefined();
      expect(new URL(beyond.links.prev!.href, t.baseUrl).searchParams.get('pageOffset')).toBe('10');
      // Within the cap the count is exact.
      const narrow = await get('type=api_product');
      expect(narrow.meta).toMatchObject({ count: 0, countExact: true });
    } finally {
      await searchIndex(t.app.db).remove(
        'article',
        notes.map((m) => m.uuid),
      );
    }
  });

  it('extracts query terms safely', () => {
    expect(queryTerms(`Pay-ments & "FX"`)).toEqual(['pay', 'ments', 'fx']);
    expect(plainText('<script>alert(1)</script><p>a&nbsp;b</p>')).toBe('a b');
  });
});
