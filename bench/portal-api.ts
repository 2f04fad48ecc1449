/**
 * What the server benchmarks do through the portal's own calls, as a developer would: sign in with
 * the demo accounts, create an organization and an application, subscribe it to a product.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { signIn, TestClient } from '../apps/server/test/http-client.ts';
import { root } from './support.ts';

// The server's YAML parser: bench/node_modules (bench-only tools) may hold another major version.
const { parse: parseYaml } = createRequire(path.join(root, 'apps/server/package.json'))('yaml') as {
  parse(text: string): unknown;
};

/** Fails with the response body when a call does not answer `status`. */
export async function check(res: Response, status: number, what: string): Promise<Response> {
  if (res.status !== status)
    throw new Error(`${what}: expected ${status}, got ${res.status}: ${(await res.text()).slice(0, 500)}`);
  return res;
}

export async function json<T>(res: Response, status: number, what: string): Promise<T> {
  return (await (await check(res, status, what)).json()) as T;
}

interface DemoAccount {
  email: string;
  password: string;
  /** Provider roles (issue 27); 'administrator' is the administrator. */
  roles?: string[];
}

/** The demo developer and administrator of content/users.yaml (listed in the README). */
export function demoAccounts(): { developer: DemoAccount; administrator: DemoAccount } {
  const users = parseYaml(fs.readFileSync(path.join(root, 'content/users.yaml'), 'utf8')) as DemoAccount[];
  const developer = users.find((u) => !u.roles?.length);
  const administrator = users.find((u) => u.roles?.includes('administrator'));
  if (!developer || !administrator)
    throw new Error('content/users.yaml lacks a developer or an administrator');
  return { developer, administrator };
}

export async function signedIn(base: string, account: DemoAccount): Promise<TestClient> {
  const client = new TestClient(base);
  if ((await signIn(client, account.email, account.password)).status !== 200)
    throw new Error(`sign-in of ${account.email} failed`);
  return client;
}

/**
 * A new organization of the signed-in client with a client_credentials application subscribed to
 * the product of `productAlias`; returns the application and its development credentials.
 */
export async function subscribedApplication(
  client: TestClient,
  options: { organization: string; title: string; productAlias: string },
): Promise<{ uuid: string; clientId: string; clientSecret: string }> {
  const org = await json<{ data: { id: string } }>(
    await client.send('POST', '/jsonapi/group/organization', {
      data: {
        type: 'group--organization',
        attributes: { label: options.organization, field_body: { value: '', format: 'plain_text' } },
      },
    }),
    201,
    'create organization',
  );
  const created = await json<{ data: { meta: { application: { uuid: string } } } }>(
    await client.send('POST', `/phpsdk/organization/apps/create?ORGANIZATION=${org.data.id}&_format=json`, {
      data: {
        type: 'node--application',
        attributes: {
          title: options.title,
          field_description: { value: `<p>${options.title}</p>`, format: 'basic_html' },
          field_allowed_grant_types: ['client_credentials'],
          field_oauth_redirect_uri: [],
          field_postlogout_redirect_uri: [],
        },
      },
    }),
    201,
    'create application',
  );
  const uuid = created.data.meta.application.uuid;
  const product = await json<{ data: { uuid: string } }>(
    await client.get(`/phpsdk/products/getProductUuid?pathAlias=${encodeURIComponent(options.productAlias)}`),
    200,
    'product uuid',
  );
  await check(
    await client.send(
      'POST',
      '/api/application',
      { type: 'subscribe', application: uuid, product: product.data.uuid },
      'application/json',
    ),
    200,
    'subscribe',
  );
  const app = await json<{
    data: {
      meta: { application: { clientId: { development: string | null }; clientSecret: string | null } };
    };
  }>(await client.get(`/jsonapi/node/application/${uuid}`), 200, 'application');
  const { clientId, clientSecret } = app.data.meta.application;
  if (!clientId.development || !clientSecret)
    throw new Error('the application has no development credentials');
  return { uuid, clientId: clientId.development, clientSecret };
}

/** A client_credentials token from the portal's token endpoint for a client's development credentials. */
export async function clientCredentialsToken(
  base: string,
  clientId: string,
  clientSecret: string,
): Promise<{ access_token: string; scope?: string }> {
  return json<{ access_token: string; scope?: string }>(
    await fetch(`${base}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: clientId,
        client_secret: clientSecret,
      }),
    }),
    200,
    'client_credentials token',
  );
}

/**
 * What the benches that call the sandbox start with: the demo developer signed in, a new
 * organization with a client_credentials application subscribed to the demo's Accounts API, and a
 * token for its development credentials.
 */
export async function sandboxClient(
  base: string,
  names: { organization: string; title: string },
): Promise<{
  developer: TestClient;
  application: { uuid: string; clientId: string; clientSecret: string };
  token: { access_token: string; scope?: string };
}> {
  const developer = await signedIn(base, demoAccounts().developer);
  const application = await subscribedApplication(developer, { ...names, productAlias: 'accounts-api-v1' });
  const token = await clientCredentialsToken(base, application.clientId, application.clientSecret);
  return { developer, application, token };
}
