import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { firstDocumentationRequests } from '@portico/contracts/documentation-data';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogDb } from '../src/modules/catalog/tables.ts';
import { signedInUser } from './org-fixtures.ts';
import { startTestApp, type TestApp } from './test-app.ts';

/** Serving the built web app: history fallback, caching, and API paths kept out of it. */
describe('web app serving', () => {
  let t: TestApp;
  const dist = fs.mkdtempSync(path.join(os.tmpdir(), 'portico-dist-'));
  beforeAll(async () => {
    fs.mkdirSync(path.join(dist, 'assets'));
    fs.mkdirSync(path.join(dist, 'images'));
    fs.writeFileSync(path.join(dist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    fs.writeFileSync(
      path.join(dist, 'index.html'),
      '<!doctype html><html><head><title>Developers Portal</title><link rel="stylesheet" crossorigin href="/assets/index-abc123.css"></head><body><div id="root"></div><script type="module" crossorigin src="/assets/index-abc123.js"></script></body></html>',
    );
    // The app's start behind a first screen (decision 068).
    fs.writeFileSync(path.join(dist, 'assets', 'first-screen-start-f1.js'), 'export {};');
    fs.writeFileSync(
      path.join(dist, 'assets', 'index-abc123.js'),
      `console.log(${JSON.stringify('x'.repeat(4000))});`,
    );
    fs.writeFileSync(
      path.join(dist, 'route-chunks.json'),
      JSON.stringify({
        '/apiProducts': ['/assets/products-page-p1.js', '/assets/index-abc123.js', '/assets/shared-s1.js'],
        '/apiProduct/:apiProductId/:viewMode?': ['/assets/product-page-p2.js'],
        '/documentation/:apiDocumentationId': [
          '/assets/docs-page-d1.js',
          '/assets/index-abc123.js',
          '/assets/shared-s1.js',
        ],
        '/404': ['/assets/not-found-page-n1.js'],
        '*': ['/assets/basic-page-b1.js'],
      }),
    );
    t = await startTestApp({ WEB_DIST: dist });
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(dist, { recursive: true, force: true });
  });

  it('answers client routes with index.html, never cached', async () => {
    for (const route of [
      '/',
      '/apiProducts',
      '/organization/123/members?x=1',
      '/oauth2/callback?code=a&state=b',
    ]) {
      const res = await fetch(`${t.baseUrl}${route}`);
      expect(res.status, route).toBe(200);
      expect(res.headers.get('content-type')).toContain('text/html');
      expect(res.headers.get('cache-control')).toBe('no-cache');
      expect(await res.text()).toContain('<div id="root">');
    }
  });

  it("announces the scripts of the route's page as modulepreload hints in its HTML", async () => {
    const hints = async (route: string) =>
      [
        ...(await (await fetch(`${t.baseUrl}${route}`)).text()).matchAll(
          /rel="modulepreload" crossorigin href="([^"]+)"/g,
        ),
      ].map((m) => m[1]);
    // Not the entry, which the HTML loads itself.
    expect(await hints('/apiProducts')).toEqual(['/assets/products-page-p1.js', '/assets/shared-s1.js']);
    expect(await hints('/apiProduct/123/docs')).toEqual(['/assets/product-page-p2.js']);
    expect(await hints('/')).toEqual([]);
    expect(await hints('/privacy')).toEqual(['/assets/basic-page-b1.js']);
    expect(await hints('/no-such-page')).toEqual(['/assets/not-found-page-n1.js']);
  });

  it("preloads the documentation page's first data, with the URLs and credentials the page uses", async () => {
    const preloads = async (route: string) =>
      [
        ...(await (await fetch(`${t.baseUrl}${route}`)).text()).matchAll(
          /<link rel="preload" as="fetch" crossorigin="use-credentials" href="([^"]+)">/g,
        ),
      ].map((m) => m[1]);
    // An alias (spec B 5): the documentation and the operation index; the segment is decoded and
    // encoded again as the web app does (contracts/documentation-data.ts).
    expect(await preloads('/documentation/my%20api')).toEqual([
      '/jsonapi/node/api_documentation/my%20api?include=field_products%2Cfield_products.field_image%2Cfield_change_log',
      '/api/apidocs/my%20api/index',
    ]);
    expect(await preloads('/documentation/a%22b%3Cc')).toEqual([
      '/jsonapi/node/api_documentation/a%22b%3Cc?include=field_products%2Cfield_products.field_image%2Cfield_change_log',
      '/api/apidocs/a%22b%3Cc/index',
    ]);
    // A uuid: the index needs the documentation's alias first.
    expect(await preloads('/documentation/3d06cacd-9a36-4326-ac68-fe45f8af53f5')).toEqual([
      '/jsonapi/node/api_documentation/3d06cacd-9a36-4326-ac68-fe45f8af53f5?include=field_products%2Cfield_products.field_image%2Cfield_change_log',
    ]);
    expect(await preloads('/documentation/%E0%A4%A')).toEqual([]);
    expect(await preloads('/apiProducts')).toEqual([]);
    expect(await preloads('/')).toEqual([]);
  });

  it("writes the documentation page's first screen into its HTML, before the app's root", async () => {
    const page = async (route: string) => (await fetch(`${t.baseUrl}${route}`)).text();
    const index = (await (await fetch(`${t.baseUrl}/api/apidocs/accounts-v1/index`)).json()) as {
      tags: { name: string; operations: { key: string }[] }[];
    };
    const keys = index.tags.flatMap((tag) => tag.operations.map((o) => o.key));
    expect(keys.length).toBeGreaterThan(1);

    const html = await page('/documentation/accounts-v1');
    const screen = html.indexOf('<div id="first-screen">');
    expect(screen).toBeGreaterThan(0);
    expect(screen).toBeLessThan(html.indexOf('<div id="root">'));
    expect(html).toContain('<h1>Accounts API Documentation</h1>');
    // The screen has its own style: the app's style sheet is preloaded, not waited for.
    expect(html).toContain(
      '<link rel="preload" as="style" crossorigin href="/assets/index-abc123.css" data-app-style>',
    );
    expect(html).not.toContain('rel="stylesheet"');
    expect(await page('/apiProducts')).toContain(
      '<link rel="stylesheet" crossorigin href="/assets/index-abc123.css">',
    );
    expect(html).toContain('<title>Accounts API Documentation | Developers Portal</title>');
    expect(html).toContain(`<p class="fs-dim fs-count">${keys.length} operations</p>`);
    // What the app shows above the reference: the breadcrumb, the downloads, servers and schemes.
    expect(html).toContain('<a href="/apiProduct/accounts-api-v1/documentation">Documentation</a>');
    expect(html).toContain(
      '<a href="/api/apidocs/accounts-v1/download/openapi.json" download>OpenAPI 3.1 (JSON)</a>',
    );
    expect(html).toContain('<p class="fs-label">Authentication</p>');
    // Every operation of the index, in its order: the first ones with their details (opened in
    // place), the others as links the server answers with their details.
    const rows = [
      ...html.matchAll(/<(details|a) class="(?:fs-row|fs-operation)" data-operation-key="([^"]+)"/g),
    ];
    expect(rows.map((m) => m[2])).toEqual(keys);
    expect(rows.map((m) => m[1])).toEqual(keys.map((_, i) => (i < 4 ? 'details' : 'a')));
    const first = /<details class="fs-row" data-operation-key="[^"]+">(.*?)<\/details>/s.exec(html)?.[1];
    expect(first).toContain('<summary class="fs-operation">');
    expect(first).toContain('<li data-response="200">');
    expect(html).not.toContain('<article');
    // The details of those four are preloaded for the app, after the page's own first data.
    const preloaded = (text: string) =>
      [...text.matchAll(/<link rel="preload" as="fetch" crossorigin="use-credentials" href="([^"]+)">/g)].map(
        (m) => m[1],
      );
    expect(preloaded(html)).toEqual([
      ...firstDocumentationRequests('accounts-v1'),
      ...keys.slice(0, 4).map((key) => `/api/apidocs/accounts-v1/operations/${key}`),
    ]);
    // Past the first four: links (payments-v1's webhook is its fifth row).
    const payments = await page('/documentation/payments-v1');
    expect(payments).toContain(
      '<a class="fs-operation" data-operation-key="paymentStatusChanged" href="/documentation/payments-v1?operation=paymentStatusChanged#operation/paymentStatusChanged">',
    );

    // The operation the query names: its details first, and its data preloaded for the app.
    const opened = await page(`/documentation/accounts-v1?operation=getBalances`);
    const article = /<article class="fs-open" data-operation-key="getBalances"[^>]*>(.*?)<\/article>/s.exec(
      opened,
    );
    expect(article?.[1]).toContain('/accounts/{accountId}/balances');
    expect(article?.[1]).toContain('<li data-response="200">');
    expect(article?.[1]).toContain('curl --request GET');
    expect(preloaded(opened)).toEqual([
      ...firstDocumentationRequests('accounts-v1'),
      '/api/apidocs/accounts-v1/operations/getBalances',
    ]);

    // By uuid too; an unknown operation is left out, an unknown documentation has no first screen.
    const { data } = (await (
      await fetch(`${t.baseUrl}/jsonapi/node/api_documentation/accounts-v1`)
    ).json()) as {
      data: { id: string };
    };
    expect(await page(`/documentation/${data.id}`)).toContain('<h1>Accounts API Documentation</h1>');
    const unknownOperation = await page('/documentation/accounts-v1?operation=noSuchOperation');
    expect(unknownOperation).toContain('<div id="first-screen">');
    expect(unknownOperation).not.toContain('<article');
    for (const route of ['/documentation/no-such-api', '/apiProducts', '/']) {
      expect(await page(route), route).not.toContain('first-screen');
    }
  });

  it('starts the app behind a first screen by a script of its own, with the scripts the page would preload', async () => {
    const page = async (route: string) => (await fetch(`${t.baseUrl}${route}`)).text();
    const entry = '<script type="module" crossorigin src="/assets/index-abc123.js"></script>';
    for (const route of [
      '/documentation/accounts-v1',
      '/documentation/accounts-v1?operation=getBalances',
      '/de/documentation/accounts-v1',
    ]) {
      const html = await page(route);
      expect(html, route).not.toContain(entry);
      expect(html, route).not.toContain('rel="modulepreload"');
      expect(html, route).toContain(
        '<script type="module" crossorigin src="/assets/first-screen-start-f1.js" data-app-entry="/assets/index-abc123.js" data-app-preloads="/assets/docs-page-d1.js /assets/shared-s1.js"></script>',
      );
    }
    // A page without a first screen runs its entry as the build wrote it, with its hints.
    const products = await page('/apiProducts');
    expect(products).toContain(entry);
    expect(products).toContain('<link rel="modulepreload" crossorigin href="/assets/shared-s1.js">');
    for (const route of ['/apiProducts', '/documentation/no-such-api', '/de/apiProducts']) {
      const html = await page(route);
      expect(html, route).toContain(entry);
      expect(html, route).not.toContain('first-screen-start');
    }
  });

  it('answers 404 with the web app where no page exists: no route, no basic page', async () => {
    for (const route of ['/no-such-page', '/organization/1/members/extra', '/404', '/apiProduct']) {
      const res = await fetch(`${t.baseUrl}${route}`);
      expect(res.status, route).toBe(404);
      expect(res.headers.get('content-type')).toContain('text/html');
      expect(await res.text()).toContain('<div id="root">');
    }
    // Basic pages (content/pages) and the redirecting routes exist.
    for (const route of ['/privacy', '/Privacy/', '/partner/apiProducts', '/news/2020/x']) {
      expect((await fetch(`${t.baseUrl}${route}`)).status, route).toBe(200);
    }
  });

  it('caches hashed assets for a year and compresses them', async () => {
    const res = await fetch(`${t.baseUrl}/assets/index-abc123.js`, {
      headers: { 'accept-encoding': 'br, gzip' },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(res.headers.get('content-encoding')).toMatch(/br|gzip/);
  });

  it('opens the pages of a documentation and a product whose aliases contain a dot', async () => {
    // An alias the import takes (contracts/api-import.ts) may end like a file name: `braze.com`.
    const admin = await signedInUser(t, 'web-app.admin@example.com', { admin: true });
    admin.csrfToken = await (await admin.get('/session/token')).text();
    for (const alias of ['braze.com', 'fec.gov', 'openpolicy.local']) {
      const query = new URLSearchParams({ product: `${alias}.v1`, alias, filename: `${alias}.yaml` });
      const imported = await admin.request(`/admin-api/catalog/import-api?${query}`, {
        method: 'POST',
        headers: { 'content-type': 'application/yaml', 'x-csrf-token': admin.csrfToken },
        body: `openapi: 3.0.3\ninfo: { title: ${alias} API, version: '1' }\npaths:\n  /ping:\n    get:\n      responses: { '200': { description: OK } }\n`,
      });
      expect(imported.status, await imported.clone().text()).toBe(201);
      for (const route of [
        `/documentation/${alias}`,
        `/documentation/${alias}?operation=x`,
        `/apiProduct/${alias}.v1`,
        `/apiProduct/${alias}.v1/documentation`,
      ]) {
        const res = await fetch(`${t.baseUrl}${route}`);
        expect(res.status, route).toBe(200);
        expect(res.headers.get('content-type'), route).toContain('text/html');
        expect(await res.text(), route).toContain('<div id="root">');
      }
      expect(await (await fetch(`${t.baseUrl}/documentation/${alias}`)).text()).toContain(
        `<h1>${alias} API Documentation</h1>`,
      );
    }
    // A path with a dot that is no page: the web app's 404, as any other.
    for (const route of ['/no-such.page', '/documentation/a.b/c', '/favicon.ico']) {
      const res = await fetch(`${t.baseUrl}${route}`);
      expect(res.status, route).toBe(404);
      expect(res.headers.get('content-type'), route).toContain('text/html');
    }
  });

  it('gives a real 404 for a missing asset and JSON:API 404s for API paths', async () => {
    // Files are known by the built folders (assets, images…), not by the shape of the path.
    for (const route of ['/assets/index-gone.js', '/assets/missing', '/images/missing.png']) {
      const res = await fetch(`${t.baseUrl}${route}`);
      expect(res.status, route).toBe(404);
      expect(res.headers.get('content-type'), route).toContain('application/vnd.api+json');
    }
    expect((await fetch(`${t.baseUrl}/favicon.svg`)).status).toBe(200);
    const api = await fetch(`${t.baseUrl}/jsonapi/node/nothing`);
    expect(api.status).toBe(404);
    expect(api.headers.get('content-type')).toContain('application/vnd.api+json');
    // A path that is no basic page (content/pages) asked for as JSON.
    const page = await fetch(`${t.baseUrl}/no-such-page?_format=json`);
    expect(page.status).toBe(404);
  });

  it("lets the pages frame the catalog's enabled chat bots, and nothing else", async () => {
    const frameSrc = async (route: string) => {
      const policy = (await fetch(`${t.baseUrl}${route}`)).headers.get('content-security-policy') ?? '';
      return /(?:^|;)\s*frame-src ([^;]*)/.exec(policy)?.[1];
    };
    const setBot = (alias: string, enabled: boolean, url: string | null) =>
      catalogDb(t.app.db)
        .updateTable('api_documentations')
        .set({ bot_enabled: enabled, bot_url: url })
        .where('alias', '=', alias)
        .execute();
    // The demo content has no bot.
    expect(await frameSrc('/')).toBe("'self'");
    try {
      await setBot('accounts-v1', true, 'https://bot.example.com/chat?lang=en');
      await setBot('payments-v1', true, 'https://bot.example.com/other');
      await setBot('fx-rates-v2', true, 'javascript:alert(1)');
      await setBot('accounts-v0', false, 'https://disabled.example.com/');
      await setBot('get-token', true, 'http://127.0.0.1:4000/bot');
      for (const route of ['/', '/documentation/accounts-v1', '/no-such-page']) {
        expect(await frameSrc(route), route).toBe("'self' http://127.0.0.1:4000 https://bot.example.com");
      }
      // API answers keep the strict policy.
      expect(
        (await fetch(`${t.baseUrl}/jsonapi/node/api_documentation`)).headers.get('content-security-policy'),
      ).toContain("frame-src 'self';");
      // A change is seen on the next page load.
      await setBot('get-token', false, null);
      expect(await frameSrc('/')).toBe("'self' https://bot.example.com");
    } finally {
      for (const alias of ['accounts-v1', 'payments-v1', 'fx-rates-v2', 'accounts-v0', 'get-token']) {
        await setBot(alias, false, null);
      }
    }
    expect(await frameSrc('/')).toBe("'self'");
  });
});
