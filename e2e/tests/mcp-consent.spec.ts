import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHash, randomBytes } from 'node:crypto';
import { en } from '@portico/contracts/messages';
import de from '../../apps/server/src/locales/de/pages.json' with { type: 'json' };
import { expect, test } from '../support/traffic.ts';
import { signUp } from '../support/applications.ts';
import { expectNoViolations } from '../support/axe.ts';
import { baseURL } from '../playwright.config.ts';

/**
 * An AI assistant's authorization at the identity provider (the MCP server, decision 056): the
 * assistant registers itself, the signed-in user sees the consent page that lists what it may do,
 * allows it, and the assistant's token works at /mcp.
 */

const M = en.mcp;

/** The assistant's loopback callback (RFC 8252): a tiny server on a free port. */
async function startCallback(): Promise<{ base: string; received: URL[]; close(): Promise<void> }> {
  const received: URL[] = [];
  const server = http.createServer((req, res) => {
    received.push(new URL(req.url ?? '/', base));
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end('<!doctype html><html lang="en"><title>Assistant</title><h1>Back at the assistant</h1></html>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { base, received, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

test('an assistant asks for consent with the list of what it may do, and its token works at /mcp', async ({
  page,
}) => {
  test.setTimeout(60_000);
  const callback = await startCallback();
  try {
    await signUp(page, 'Mia', 'Assistant');
    const redirectUri = `${callback.base}/callback`;
    const registered = await page.request.post('/idp/reg', {
      data: {
        client_name: 'Desk Assistant',
        redirect_uris: [redirectUri],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'none',
      },
    });
    expect(registered.status()).toBe(201);
    const { client_id: clientId } = (await registered.json()) as { client_id: string };

    const verifier = randomBytes(32).toString('base64url');
    await page.goto(
      `/idp/auth?${new URLSearchParams({
        client_id: clientId,
        response_type: 'code',
        redirect_uri: redirectUri,
        scope: 'portal',
        resource: `${baseURL}/mcp`,
        state: 'mcp-1',
        code_challenge: createHash('sha256').update(verifier).digest('base64url'),
        code_challenge_method: 'S256',
      })}`,
    );
    await expect(page.getByRole('heading', { name: M.consentTitle })).toBeVisible();
    await expect(page.getByText('Desk Assistant')).toBeVisible();
    const items = page.getByRole('listitem');
    await expect(items).toHaveText([
      M.capabilityRead,
      M.capabilityCreate,
      M.capabilitySubscribe,
      M.capabilitySandbox,
      M.capabilitySupport,
    ]);
    await expect(page.getByText(M.consentLimits)).toBeVisible();
    await expectNoViolations(page, 'assistant consent');

    await page.getByRole('button', { name: M.allowButton }).click();
    await page.waitForURL((url) => url.href.startsWith(redirectUri));
    await expect(page.getByRole('heading', { name: 'Back at the assistant' })).toBeVisible();
    const back = callback.received.find((u) => u.pathname === '/callback')!;
    expect(back.searchParams.get('state')).toBe('mcp-1');
    const code = back.searchParams.get('code')!;
    expect(code).toBeTruthy();

    const token = await page.request.post('/idp/token', {
      form: {
        grant_type: 'authorization_code',
        code,
        redirect_uri: redirectUri,
        client_id: clientId,
        code_verifier: verifier,
        resource: `${baseURL}/mcp`,
      },
    });
    expect(token.status()).toBe(200);
    const { access_token: accessToken, scope } = (await token.json()) as {
      access_token: string;
      scope: string;
    };
    expect(scope).toBe('portal');
    const call = await page.request.post('/mcp', {
      headers: {
        authorization: `Bearer ${accessToken}`,
        accept: 'application/json, text/event-stream',
      },
      data: {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'list_my_organizations', arguments: {} },
      },
    });
    expect(call.status()).toBe(200);
    const answer = (await call.json()) as { result: { structuredContent: { organizations: unknown[] } } };
    expect(answer.result.structuredContent.organizations).toEqual([]);
  } finally {
    await callback.close();
  }
});

test('the consent page, here in German (ui_locales), denies as well: the assistant gets access_denied', async ({
  page,
}) => {
  test.setTimeout(60_000);
  const callback = await startCallback();
  try {
    await signUp(page, 'Dan', 'Denier');
    const redirectUri = `${callback.base}/callback`;
    const registered = await page.request.post('/idp/reg', {
      data: {
        client_name: 'Nosy Assistant',
        redirect_uris: [redirectUri],
        token_endpoint_auth_method: 'none',
      },
    });
    const { client_id: clientId } = (await registered.json()) as { client_id: string };
    await page.goto(
      `/idp/auth?${new URLSearchParams({
        client_id: clientId,
        response_type: 'code',
        redirect_uri: redirectUri,
        scope: 'portal',
        state: 'mcp-2',
        code_challenge: createHash('sha256').update('x'.repeat(43)).digest('base64url'),
        code_challenge_method: 'S256',
        ui_locales: 'de',
      })}`,
    );
    const D = de.mcp;
    await expect(page.getByRole('heading', { name: D.consentTitle })).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('lang', 'de');
    await expect(page.getByRole('listitem')).toHaveText([
      D.capabilityRead,
      D.capabilityCreate,
      D.capabilitySubscribe,
      D.capabilitySandbox,
      D.capabilitySupport,
    ]);
    await expectNoViolations(page, 'assistant consent in German');
    await page.getByRole('button', { name: D.denyButton }).click();
    await page.waitForURL((url) => url.href.startsWith(redirectUri));
    const back = callback.received.find((u) => u.pathname === '/callback')!;
    expect(back.searchParams.get('error')).toBe('access_denied');
    expect(back.searchParams.get('state')).toBe('mcp-2');
  } finally {
    await callback.close();
  }
});
