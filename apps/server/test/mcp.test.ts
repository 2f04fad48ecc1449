import { randomBytes } from 'node:crypto';
import { en } from '@portico/contracts/messages';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClient } from './http-client.ts';
import {
  answerConsent,
  authorize,
  connectAssistant,
  dataOf,
  mcpUrl,
  openConsent,
  textOf,
  type Assistant,
} from './mcp-fixtures.ts';
import { examplesApi, insertDocument, makeWorld, type World } from './applications-fixtures.ts';
import { createOrg, signedInUser } from './org-fixtures.ts';
import { startTestApp, testDbKind, type TestApp } from './test-app.ts';

/**
 * The MCP server at /mcp (issue 30, modules/mcp/README.md, decision 056), driven by the SDK's own
 * Client and Streamable HTTP transport: the anonymous tools on the demo content, the MCP
 * authorization (protected resource metadata, dynamic registration, PKCE, consent, resource
 * indicator), and the signed-in tools with the web app's permissions.
 */
let t: TestApp;
let origin: string;
beforeAll(async () => {
  t = await startTestApp();
  origin = t.config.publicUrl;
});
afterAll(async () => {
  await t?.close();
});

interface Org {
  uuid: string;
  title: string;
  roles: string[];
}
interface App {
  uuid: string;
  title: string;
  status: string;
  clientId: string;
  organization: { uuid: string };
  subscriptions: { product: string; scope: string }[];
}

describe('MCP: anonymous tools read what a visitor reads (demo content)', () => {
  let a: Assistant;
  beforeAll(async () => {
    a = await connectAssistant(t);
  });
  afterAll(async () => {
    await a.close();
  });

  it('lists the public and the signed-in tools, with input schemas', async () => {
    expect(a.client.getServerVersion()?.name).toBe('portico');
    const { tools } = await a.client.listTools();
    const names = tools.map((tool) => tool.name).sort();
    expect(names).toEqual(
      [
        'call_sandbox_operation',
        'create_development_application',
        'get_api_documentation',
        'get_api_operation',
        'get_api_product',
        'get_article',
        'get_changelog',
        'get_faq',
        'get_sandbox_token',
        'list_api_products',
        'list_articles',
        'list_my_applications',
        'list_my_organizations',
        'open_support_ticket',
        'search_portal',
        'subscribe_application',
      ].sort(),
    );
    const search = tools.find((tool) => tool.name === 'search_portal')!;
    expect(search.inputSchema.required).toEqual(['query']);
    expect(search.annotations?.readOnlyHint).toBe(true);
  });

  it('searches the portal with the site search', async () => {
    const text = textOf(await a.call('search_portal', { query: 'accounts' }));
    expect(text).toMatch(/results for “accounts”/);
    expect(text).toContain('Accounts API');
    const none = await a.call('search_portal', { query: 'zzqxnothing' });
    expect(textOf(none)).toBe('No results for “zzqxnothing”.');
  });

  it('lists the products and reads one', async () => {
    const list = textOf(await a.call('list_api_products'));
    expect(list).toContain('Accounts API 1.0 (alias `accounts-api-v1`)');
    expect(list).toContain(`${origin}/apiProduct/accounts-api-v1.md`);
    const product = textOf(await a.call('get_api_product', { product: 'accounts-api-v1' }));
    expect(product.startsWith('# Accounts API\n')).toBe(true);
    expect(product).toContain(`${origin}/documentation/accounts-v1.md`);
  });

  it("reads an API's documentation and one operation with its schemas and a sample", async () => {
    const doc = textOf(await a.call('get_api_documentation', { documentation: 'accounts-v1' }));
    expect(doc.startsWith('# Accounts API Documentation\n')).toBe(true);
    expect(doc).toContain(`- ${origin}/sandbox/accounts-v1`);
    expect(doc).toContain('`getAccount`: GET /accounts/{accountId} (Get an account)');
    const op = textOf(
      await a.call('get_api_operation', { documentation: 'accounts-v1', operation: 'getAccount' }),
    );
    expect(op.startsWith('# GET /accounts/{accountId}\n')).toBe(true);
    expect(op).toContain('### Parameters');
    expect(op).toMatch(/\| `accountId` \| Path \| string \| yes \|/);
    expect(op).toContain('### Responses');
    expect(op).toContain('"iban": "DE89370400440532013000"');
    const unknown = await a.call('get_api_operation', { documentation: 'accounts-v1', operation: 'nope' });
    expect(unknown.isError).toBe(true);
    expect(textOf(unknown)).toBe('Nothing public matches accounts-v1 nope.');
  });

  it('reads the changelog, the FAQ and the articles, nothing internal', async () => {
    const changelog = textOf(await a.call('get_changelog', { product: 'accounts-api-v1' }));
    expect(changelog).toContain('## Accounts API 1.0 (2026-01-15)');
    expect(changelog).toContain('General availability.');
    expect(changelog.indexOf('1.0 (2026-01-15)')).toBeLessThan(changelog.indexOf('1.0-beta'));
    const faq = textOf(await a.call('get_faq', { query: 'client secret leaks' }));
    expect(faq).toContain('## What do I do if my client secret leaks? (Security and authentication)');
    expect(faq).toContain('Reset it at once from your application page.');
    expect(faq).not.toContain('How do I get access to the APIs?');
    const articles = textOf(await a.call('list_articles'));
    expect(articles).toContain('path `/blog/oauth-in-practice`');
    expect(articles).not.toContain('Internal: the December release train');
    expect(articles).not.toContain('Draft: Open data');
    const article = textOf(await a.call('get_article', { path: '/blog/oauth-in-practice' }));
    expect(article.startsWith('# OAuth 2 in practice: client credentials or authorization code?\n')).toBe(
      true,
    );
    const internal = await a.call('get_article', { path: '/blog/internal-release-train' });
    expect(internal.isError).toBe(true);
  });

  it('refuses bad input with the schema, without calling the tool', async () => {
    const bad = await a.call('search_portal', { query: '' });
    expect(bad.isError).toBe(true);
    expect(textOf(bad)).toMatch(/Input validation error/);
  });
});

describe('MCP: the authorization (protected resource metadata, registration, PKCE, consent)', () => {
  it('publishes the protected resource metadata and names it in the 401', async () => {
    for (const path of [
      '/.well-known/oauth-protected-resource/mcp',
      '/.well-known/oauth-protected-resource',
    ]) {
      const res = await fetch(`${origin}${path}`);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({
        resource: `${origin}/mcp`,
        authorization_servers: [`${origin}/idp`],
        scopes_supported: ['portal'],
        bearer_methods_supported: ['header'],
        resource_name: en.site.title,
        resource_documentation: `${origin}/llms.txt`,
      });
    }
    // The authorization server's metadata where OAuth clients look (RFC 8414) and at the issuer.
    for (const path of [
      '/.well-known/oauth-authorization-server/idp',
      '/idp/.well-known/openid-configuration',
    ]) {
      const meta = (await (await fetch(`${origin}${path}`)).json()) as Record<string, unknown>;
      expect(meta.issuer).toBe(`${origin}/idp`);
      expect(meta.registration_endpoint).toBe(`${origin}/idp/reg`);
      expect(meta.code_challenge_methods_supported).toEqual(['S256']);
      expect(meta.token_endpoint_auth_methods_supported).toContain('none');
    }
    const call = await fetch(`${origin}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'list_my_organizations', arguments: {} },
      }),
    });
    expect(call.status).toBe(401);
    expect(call.headers.get('www-authenticate')).toBe(
      `Bearer resource_metadata="${origin}/.well-known/oauth-protected-resource/mcp", scope="portal"`,
    );
    const bad = await fetch(`${origin}/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: 'Bearer not-a-token',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(bad.status).toBe(401);
    expect(bad.headers.get('www-authenticate')).toContain('error="invalid_token"');
    // Stateless: no stream to open, no session to end; a page of another origin is refused.
    expect((await fetch(`${origin}/mcp`)).status).toBe(405);
    const foreign = await fetch(`${origin}/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        origin: 'https://evil.example',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(foreign.status).toBe(403);
  });

  it('registers public clients with https or loopback redirect URIs only', async () => {
    const register = (body: Record<string, unknown>) =>
      fetch(`${origin}/idp/reg`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ client_name: 'X', grant_types: ['authorization_code'], ...body }),
      });
    const confidential = await register({ redirect_uris: ['https://assistant.example/cb'] });
    expect(confidential.status).toBe(400);
    expect(await confidential.json()).toMatchObject({ error: 'invalid_client_metadata' });
    const plainHttp = await register({
      redirect_uris: ['http://assistant.example/cb'],
      token_endpoint_auth_method: 'none',
    });
    expect(plainHttp.status).toBe(400);
    expect(await plainHttp.json()).toMatchObject({ error: 'invalid_redirect_uri' });
    const ok = await register({
      redirect_uris: ['http://127.0.0.1:4321/cb', 'https://assistant.example/cb'],
      token_endpoint_auth_method: 'none',
    });
    expect(ok.status).toBe(201);
    const client = (await ok.json()) as Record<string, unknown>;
    expect(client.client_secret).toBeUndefined();
    expect(client.token_endpoint_auth_method).toBe('none');
  });

  it('the portal itself still signs in without a consent screen', async () => {
    // signedInUser walks the portal's own code flow: it would stop at a consent page.
    const browser = await signedInUser(t, 'portal.still@example.com');
    expect((await browser.get('/session/user')).status).toBe(200);
  });

  it('a denied consent gives the assistant access_denied and no token; the page is in the browser’s language', async () => {
    const browser = await signedInUser(t, 'deny.ing@example.com');
    const a = await connectAssistant(t);
    await expect(a.call('list_my_organizations')).rejects.toThrow();
    browser.headers['accept-language'] = 'de-DE,de;q=0.9';
    const consent = await openConsent(browser, a.oauth.authorizationUrl!);
    expect(consent.html).toContain('<html lang="de">');
    expect(consent.html).toContain('<h1>Einem KI-Assistenten erlauben, für Sie zu handeln</h1>');
    expect(consent.html).toContain('<li>Ihre Organisationen und deren Anwendungen sehen</li>');
    expect(consent.html).toContain('<button type="submit" class="secondary">Ablehnen</button>');
    const back = await answerConsent(browser, consent.url, 'abort', a.oauth.redirectUrl);
    expect(back.searchParams.get('error')).toBe('access_denied');
    expect(back.searchParams.get('error_description')).toBe(en.mcp.denied);
    expect(a.oauth.tokens()).toBeUndefined();
    await a.close();
  });
});

describe('MCP: a signed-in assistant acts for its user with the web app’s permissions', () => {
  let w: World;
  let developer: Assistant;
  beforeAll(async () => {
    w = await makeWorld(t, new TestClient(t.baseUrl));
    developer = await connectAssistant(t);
  });
  afterAll(async () => {
    await developer?.close();
  });

  it('goes through the authorization flow with a consent page that lists what it may do', async () => {
    const html = await authorize(developer, w.c.developer);
    expect(html).toContain(`<h1>${en.mcp.consentTitle}</h1>`);
    expect(html).toContain('<strong>Test Assistant</strong>');
    for (const line of [
      en.mcp.capabilityRead,
      en.mcp.capabilityCreate,
      en.mcp.capabilitySubscribe,
      en.mcp.capabilitySandbox,
      en.mcp.capabilitySupport,
    ])
      expect(html).toContain(`<li>${line}</li>`);
    expect(html).toContain('<code>http://127.0.0.1:8976</code>');
    // The token is for /mcp only (RFC 8707), opaque, with the portal scope.
    const tokens = developer.oauth.tokens()!;
    expect(tokens.scope).toBe('portal');
    expect(tokens.token_type).toBe('Bearer');
    // The same token means nothing to the sandbox.
    const sandbox = await fetch(`${origin}/sandbox/accounts-v1/accounts`, {
      headers: { authorization: `Bearer ${tokens.access_token}` },
    });
    expect(sandbox.status).toBe(401);
  });

  it('creates an application, subscribes it, gets a sandbox token and calls the sandbox', async () => {
    const { organizations } = dataOf<{ organizations: Org[] }>(await developer.call('list_my_organizations'));
    expect(organizations).toEqual([
      expect.objectContaining({ uuid: w.org.id, roles: ['organization-developer'] }),
    ]);
    const created = dataOf<{ application: App }>(
      await developer.call('create_development_application', {
        organization: w.org.id,
        title: 'Assistant app',
        description: 'Made by an assistant',
      }),
    ).application;
    expect(created).toMatchObject({ title: 'Assistant app', status: 'DEVELOPMENT', subscriptions: [] });
    expect(created.clientId).toMatch(/^[0-9a-f]{32}$/);
    const subscribed = dataOf<{ application: App }>(
      await developer.call('subscribe_application', {
        application: created.uuid,
        product: 'accounts-api-v1',
      }),
    ).application;
    expect(subscribed.subscriptions).toEqual([
      expect.objectContaining({ product: 'accounts-api-v1', scope: 'accounts:read' }),
    ]);
    const listed = dataOf<{ applications: App[] }>(
      await developer.call('list_my_applications', { organization: w.org.id }),
    ).applications;
    expect(listed.map((x) => x.uuid)).toContain(created.uuid);

    const token = dataOf<{ accessToken: string; scope: string }>(
      await developer.call('get_sandbox_token', { application: created.uuid }),
    );
    expect(token.scope).toContain('accounts:read');
    const answer = dataOf<{ status: number; body: unknown }>(
      await developer.call('call_sandbox_operation', {
        method: 'GET',
        path: '/sandbox/accounts-v1/accounts',
        accessToken: token.accessToken,
      }),
    );
    expect(answer.status).toBe(200);
    expect(JSON.stringify(answer.body)).toContain('DE89370400440532013000');
    // The tool answers text: an Accept-Encoding the assistant passes does not make it bytes.
    const lines = Array.from({ length: 40 }, (_, i) => ({ id: `line-${i}`, text: `Statement line ${i}` }));
    const statements = examplesApi('Statements', { '/statement': { lines } });
    await insertDocument(t.app.db, 'mcp-statements', statements, 'mcp-statements-1');
    const long = dataOf<{ status: number; body: unknown }>(
      await developer.call('call_sandbox_operation', {
        method: 'GET',
        path: '/sandbox/mcp-statements/statement',
        accessToken: token.accessToken,
        headers: { 'Accept-Encoding': 'br, gzip' },
      }),
    );
    expect(long).toEqual({ status: 200, contentType: 'application/json; charset=utf-8', body: { lines } });
    // Without the token the sandbox says so, and the assistant sees it.
    const refused = dataOf<{ status: number; wwwAuthenticate?: string }>(
      await developer.call('call_sandbox_operation', {
        method: 'GET',
        path: '/sandbox/accounts-v1/accounts',
        accessToken: 'nope',
      }),
    );
    expect(refused.status).toBe(401);
    // Only the sandbox: a path that climbs out of it is refused.
    const out = await developer.call('call_sandbox_operation', {
      method: 'GET',
      path: '/sandbox/../api/support_ticket',
      accessToken: token.accessToken,
    });
    expect(out.isError).toBe(true);

    // Recorded as the web app records it: the developer, from the assistant's address.
    const audit = await t.app.db
      .selectFrom('audit_log')
      .select(['action', 'actor_email', 'target_id'])
      .where('target_id', '=', created.uuid)
      .orderBy('id')
      .execute();
    expect(audit.map((e) => e.action)).toEqual(['application.created', 'subscription.added']);
    expect(new Set(audit.map((e) => e.actor_email))).toEqual(new Set(['dev.eloper.w1@example.com']));
  });

  it('opens a support ticket in the user’s name', async () => {
    const { ticket } = dataOf<{ ticket: { id: number; uuid: string } }>(
      await developer.call('open_support_ticket', {
        title: 'Sandbox question',
        description: 'The balances look odd.',
        details: 'GET /sandbox/accounts-v1/accounts',
        environment: 'Test',
        severity: 'Low',
      }),
    );
    expect(ticket.id).toEqual(expect.any(Number));
    const mine = (await (await w.c.developer.get('/api/support_ticket')).json()) as unknown;
    expect(JSON.stringify(mine)).toContain('Sandbox question');
  });

  it('is refused what the developer is refused', async () => {
    // Another organization: not a member, so it does not exist for them (404), as in the web app.
    const other = await createOrg(w.c.stranger, 'Not yours');
    const elsewhere = await developer.call('create_development_application', {
      organization: other.id,
      title: 'Sneaky',
    });
    expect(elsewhere.isError).toBe(true);
    expect(textOf(elsewhere)).toMatch(/^The portal refused the call \(404\)/);
    expect((await developer.call('list_my_applications', { organization: other.id })).isError).toBe(true);
    // A financial member may see applications but not create one nor use their secret (403).
    const financial = await connectAssistant(t);
    await authorize(financial, w.c.financial);
    const create = await financial.call('create_development_application', {
      organization: w.org.id,
      title: 'Not allowed',
    });
    expect(create.isError).toBe(true);
    expect(textOf(create)).toMatch(/^The portal refused the call \(403\)/);
    const apps = dataOf<{ applications: App[] }>(await financial.call('list_my_applications')).applications;
    expect(apps.length).toBeGreaterThan(0);
    const secret = await financial.call('get_sandbox_token', { application: apps[0]!.uuid });
    expect(secret.isError).toBe(true);
    const subscribe = await financial.call('subscribe_application', {
      application: apps[0]!.uuid,
      product: 'accounts-api-v1',
    });
    expect(subscribe.isError).toBe(true);
    expect(textOf(subscribe)).toMatch(/\(403\)/);
    await financial.close();
  });

  it('stops at once when the user is blocked', async () => {
    const browser = await signedInUser(t, 'soon.blocked@example.com');
    const a = await connectAssistant(t);
    await authorize(a, browser);
    expect(dataOf<{ organizations: Org[] }>(await a.call('list_my_organizations')).organizations).toEqual([]);
    await t.app.db
      .updateTable('users')
      .set({ blocked_at: new Date() })
      .where('email', '=', 'soon.blocked@example.com')
      .execute();
    await expect(a.call('list_my_organizations')).rejects.toThrow();
    await a.close();
  });
});

describe('MCP: rate limits', () => {
  it('counts every tool call per caller and answers 429 past MCP_RATE_LIMIT', async () => {
    const limited = await startTestApp({ MCP_RATE_LIMIT: '2', IMPORT_CONTENT: 'false' });
    try {
      const a = await connectAssistant(limited);
      await a.call('list_api_products');
      await a.call('list_api_products');
      await expect(a.call('list_api_products')).rejects.toThrow(/429|Too many calls/);
      await a.close();
      const res = await fetch(mcpUrl(limited), {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 9,
          method: 'tools/call',
          params: { name: 'list_api_products', arguments: {} },
        }),
      });
      expect(res.status).toBe(429);
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    } finally {
      await limited.close();
    }
  });
});

describe.skipIf(testDbKind() !== 'postgres')('MCP: stateless, on several instances', () => {
  it('answers without a session on any instance, and a token from one works on the other', async () => {
    // Two instances on one database behind one address: the second names the first's PUBLIC_URL
    // (the resource of the tokens), as both would name the load balancer's.
    const a = await startTestApp({ SECRET_KEY: randomBytes(32).toString('hex') });
    const b = await startTestApp({
      DATABASE_URL: a.config.databaseUrl!,
      SECRET_KEY: a.config.secretKey!,
      IMPORT_CONTENT: 'false',
      PUBLIC_URL: a.config.publicUrl,
    });
    try {
      const post = (base: string, body: unknown, token?: string) =>
        fetch(`${base}/mcp`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
            ...(token ? { authorization: `Bearer ${token}` } : {}),
          },
          body: JSON.stringify(body),
        });
      const call = (name: string) => ({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name, arguments: {} },
      });
      // No initialize, no session id: a tool call alone is answered by any instance.
      const anonymous = await post(b.baseUrl, call('list_api_products'));
      expect(anonymous.status).toBe(200);
      expect(anonymous.headers.get('mcp-session-id')).toBeNull();
      expect(JSON.stringify(await anonymous.json())).toContain('accounts-api-v1');

      const browser = await signedInUser(a, 'two.instances@example.com');
      const assistant = await connectAssistant(a);
      await authorize(assistant, browser);
      const token = assistant.oauth.tokens()!.access_token;
      await assistant.close();
      const onB = await post(b.baseUrl, call('list_my_organizations'), token);
      expect(onB.status).toBe(200);
      expect(
        ((await onB.json()) as { result: { structuredContent: unknown } }).result.structuredContent,
      ).toEqual({
        organizations: [],
      });
    } finally {
      await b.close();
      await a.close();
    }
  });
});
