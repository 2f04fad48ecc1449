import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { UnauthorizedError, type OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { expect } from 'vitest';
import type { TestClient } from './http-client.ts';
import type { TestApp } from './test-app.ts';

/**
 * An MCP client as an assistant runs it: the SDK's own Client and Streamable HTTP transport, with
 * an OAuth provider kept in memory (dynamic registration, PKCE, tokens). The user's browser is a
 * TestClient holding the portal's and the identity provider's cookies.
 */
export class MemoryOAuthProvider implements OAuthClientProvider {
  readonly redirectUrl = 'http://127.0.0.1:8976/callback';
  client: OAuthClientInformationMixed | undefined;
  stored: OAuthTokens | undefined;
  verifier = '';
  authorizationUrl: URL | undefined;

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'Test Assistant',
      redirect_uris: [this.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }
  clientInformation() {
    return this.client;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.client = info;
  }
  tokens() {
    return this.stored;
  }
  saveTokens(tokens: OAuthTokens) {
    this.stored = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
}

export interface Assistant {
  client: Client;
  transport: StreamableHTTPClientTransport;
  oauth: MemoryOAuthProvider;
  call(name: string, args?: Record<string, unknown>): Promise<CallToolResult>;
  close(): Promise<void>;
}

/** The MCP endpoint as assistants name it: PUBLIC_URL's (the resource of the tokens). */
export const mcpUrl = (t: TestApp) => new URL(`${t.config.publicUrl}/mcp`);

/** An assistant connected to the portal's /mcp, anonymous until it goes through `authorize`. */
export async function connectAssistant(t: TestApp): Promise<Assistant> {
  const oauth = new MemoryOAuthProvider();
  const transport = new StreamableHTTPClientTransport(mcpUrl(t), { authProvider: oauth });
  const client = new Client({ name: 'portico-test-assistant', version: '1.0.0' });
  await client.connect(transport);
  return {
    client,
    transport,
    oauth,
    call: async (name, args = {}) => (await client.callTool({ name, arguments: args })) as CallToolResult,
    close: () => client.close(),
  };
}

/** The text of a tool's answer. */
export function textOf(result: CallToolResult): string {
  return result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
}

/** The JSON of a data answer (answers.ts `data`). */
export function dataOf<T>(result: CallToolResult): T {
  expect(result.isError, textOf(result)).toBeFalsy();
  return JSON.parse(textOf(result)) as T;
}

/**
 * The browser's part of the authorization: opens the authorization URL with the user's cookies,
 * follows the identity provider's redirects to the consent page, and returns it with its form.
 */
export async function openConsent(
  browser: TestClient,
  authorizationUrl: URL,
): Promise<{ html: string; url: string; status: number }> {
  let url = authorizationUrl.toString();
  for (let hop = 0; hop < 10; hop++) {
    const res = await browser.get(url);
    const location = res.headers.get('location');
    if (res.status >= 300 && res.status < 400 && location) {
      url = new URL(location, url).toString();
      continue;
    }
    return { html: await res.text(), url, status: res.status };
  }
  throw new Error('too many redirects');
}

/** Posts the consent page's form (`confirm` or `abort`) and follows to the client's redirect URI. */
export async function answerConsent(
  browser: TestClient,
  consentUrl: string,
  answer: 'confirm' | 'abort',
  redirectUrl: string,
): Promise<URL> {
  const posted = await browser.postForm(`${consentUrl}/${answer}`, {});
  let url = new URL(posted.headers.get('location') ?? '', consentUrl).toString();
  expect(posted.status, await posted.clone().text()).toBeGreaterThanOrEqual(300);
  for (let hop = 0; hop < 10 && !url.startsWith(redirectUrl); hop++) {
    const res = await browser.get(url);
    const location = res.headers.get('location');
    expect(location, `${res.status} at ${url}`).toBeTruthy();
    url = new URL(location!, url).toString();
  }
  return new URL(url);
}

/**
 * The whole authorization of an assistant for the user of `browser`: a call of a signed-in tool
 * gets 401, the SDK registers the client and builds the authorization URL (PKCE, resource), the
 * user consents, and the SDK exchanges the code. Returns the consent page's HTML.
 */
export async function authorize(assistant: Assistant, browser: TestClient): Promise<string> {
  await expect(assistant.call('list_my_organizations')).rejects.toBeInstanceOf(UnauthorizedError);
  const authorizationUrl = assistant.oauth.authorizationUrl;
  expect(authorizationUrl).toBeDefined();
  const consent = await openConsent(browser, authorizationUrl!);
  expect(consent.status, consent.html).toBe(200);
  const back = await answerConsent(browser, consent.url, 'confirm', assistant.oauth.redirectUrl);
  const code = back.searchParams.get('code');
  expect(code, back.toString()).toBeTruthy();
  await assistant.transport.finishAuth(code!);
  return consent.html;
}
