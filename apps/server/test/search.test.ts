import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresDatabase, startTestApp, testDbKind, type TestApp } from './test-app.ts';

/** GET /phpsdk/search (spec B 2.6, 7) over the demo content: pages, products, endpoints. */

interface SearchResult {
  uuid: string;
  title: string;
  link: string | null;
  type: string;
  description: string;
  image: string | null;
  deprecated: boolean;
  created: string;
}
interface SearchAnswer {
  data: SearchResult[];
  meta: { count: number; pageSize: number; pageOffset: number; type: string; query: string };
  links: { self?: { href: string }; next?: { href: string }; prev?: { href: string } };
}
interface ErrorAnswer {
  errors: { status: string; detail: string; source?: { parameter?: string } }[];
}

describe('site search', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => t.close());

  async function search(query: string): Promise<SearchAnswer> {
    const res = await fetch(`${t.baseUrl}/phpsdk/search?${query}`);
    expect(res.status).toBe(200);
    return (await res.json()) as SearchAnswer;
  }

  it('finds a basic page by a word of its text, linking to its alias', async () => {
    const answer = await search('q=privacy&type=page&pageSize=10&pageOffset=0&pagination=true');
    const page = answer.data.find((r) => r.link === '/privacy');
    expect(page).toMatchObject({ type: 'page', title: 'Privacy policy' });
    expect(page!.description.length).toBeGreaterThan(0);
    expect(page!.description.length).toBeLessThanOrEqual(500);
    expect(page!.description).not.toMatch(/<[a-z]/i);
    expect(answer.data.every((r) => r.type === 'page')).toBe(true);
  });

  it('finds API products and API endpoints, and the endpoint link opens that operation', async () => {
    const products = await search('q=accounts&type=api_product');
    expect(products.data.map((r) => r.title)).toContain('Accounts API');
    expect(products.data.map((r) => r.link)).toContain('/apiProduct/accounts-api-v1');

    const endpoints = await search('q=listTransactions&type=api_endpoint');
    const op = endpoints.data.find((r) => r.title === 'List the transactions of an account');
    expect(op, JSON.stringify(endpoints.data)).toBeDefined();
    const match = /^\/documentation\/([0-9a-f-]{36})#operation\/(.+)$/.exec(op!.link ?? '');
    expect(match).not.toBeNull();
    const doc = (await (await fetch(`${t.baseUrl}/jsonapi/node/api_documentation/${match![1]}`)).json()) as {
      data: { attributes: { field_alias?: string; alias?: string } };
    };
    expect(doc.data).toBeDefined();
    // By prefix and by a word of the path.
    expect((await search('q=transact&type=api_endpoint')).data.map((r) => r.uuid)).toContain(op!.uuid);
  });

  it('pages with meta.count and next/prev links; ALL covers every type', async () => {
    const all = await search('q=account&type=ALL&pageSize=2&pageOffset=0&pagination=true');
    expect(all.meta.count).toBeGreaterThan(2);
    expect(all.data).toHaveLength(2);
    const types = new Set((await search('q=account&pageSize=50')).data.map((r) => r.type));
    for (const type of ['api_product', 'api_endpoint', 'page', 'article']) expect(types).toContain(type);
    const next = await fetch(`${t.baseUrl}${all.links.next!.href}`);
    const second = (await next.json()) as SearchAnswer;
    expect(second.meta.pageOffset).toBe(2);
    expect(second.data.map((r) => r.uuid)).not.toContain(all.data[0]!.uuid);
    expect(second.links.prev).toBeDefined();
  });

  it('an empty query finds nothing; bad parameters get a 400 naming the parameter', async () => {
    expect(await search('q=&type=ALL')).toMatchObject({ data: [], meta: { count: 0 } });
    for (const [query, parameter] of [
      ['q=a&type=bogus', 'type'],
      ['q=a&pageSize=0', 'pageSize'],
      ['q=a&pageSize=abc', 'pageSize'],
      ['q=a&pageOffset=-1', 'pageOffset'],
      [`q=${'x'.repeat(201)}`, 'q'],
      ['q=a&pagination=maybe', 'pagination'],
    ] as const) {
      const res = await fetch(`${t.baseUrl}/phpsdk/search?${query}`);
      expect(res.status, query).toBe(400);
      const body = (await res.json()) as ErrorAnswer;
      expect(body.errors[0]!.source?.parameter, query).toBe(parameter);
    }
  });
});

describe('site search after a content edit and a restart', () => {
  const contentDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portico-search-content-'));
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portico-search-data-'));
  let drop: (() => Promise<void>) | undefined;
  afterAll(async () => {
    await drop?.();
    fs.rmSync(contentDir, { recursive: true, force: true });
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  function writePage(body: string) {
    fs.mkdirSync(path.join(contentDir, 'pages'), { recursive: true });
    fs.writeFileSync(
      path.join(contentDir, 'pages', 'rates.md'),
      `---\ntitle: Interest rates\nalias: /rates\n---\n\n${body}\n`,
    );
  }

  // Two starts on a fresh data folder: minutes on a busy machine, not seconds.
  it('a changed page file changes the search result', { timeout: 180_000 }, async () => {
    const env: Record<string, string> = { CONTENT_DIR: contentDir, DATA_DIR: dataDir };
    if (testDbKind() === 'postgres') {
      const created = await createPostgresDatabase();
      env.DATABASE_URL = created.url;
      drop = created.drop;
    }
    const find = async (t: TestApp, q: string) =>
      ((await (await fetch(`${t.baseUrl}/phpsdk/search?q=${q}&type=page`)).json()) as SearchAnswer).data.map(
        (r) => r.link,
      );
    writePage('Our savings accounts pay a variable rate.');
    let t = await startTestApp(env);
    try {
      expect(await find(t, 'savings')).toEqual(['/rates']);
    } finally {
      await t.app.close();
    }
    writePage('Our deposit accounts pay a fixed rate.');
    t = await startTestApp(env);
    try {
      expect(await find(t, 'savings')).toEqual([]);
      expect(await find(t, 'deposit')).toEqual(['/rates']);
    } finally {
      await t.app.close();
    }
  });
});
