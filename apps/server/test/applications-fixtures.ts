import type { Application } from '@portico/contracts/applications';
import { sql } from 'kysely';
import { expect } from 'vitest';
import type { Db } from '../src/db/client.ts';
import type { TestClient } from './http-client.ts';
import { accept, body, createOrg, invite, signedInUser, type OrgResource } from './org-fixtures.ts';
import type { TestApp } from './test-app.ts';

/** Helpers for the applications tests: an organization with every role, products, apps, tokens. */

export const ACTORS = [
  'anonymous',
  'stranger',
  'owner',
  'creator',
  'developer',
  'financial',
  'legal',
  'pending',
] as const;
export type Actor = (typeof ACTORS)[number];

export interface World {
  org: OrgResource;
  c: Record<Actor, TestClient>;
  admin: TestClient;
}

let worlds = 0;

/**
 * An organization created by `creator` (its owner), with an invited owner, developer, financial
 * and legal member, a pending invitee, a stranger, an anonymous client and a provider admin.
 */
export async function makeWorld(t: TestApp, anonymous: TestClient): Promise<World> {
  const n = ++worlds;
  const mail = (who: string) => `${who}.w${n}@example.com`;
  const c = { anonymous } as Record<Actor, TestClient>;
  c.stranger = await signedInUser(t, mail('sam.stranger'));
  c.creator = await signedInUser(t, mail('carla.creator'));
  c.owner = await signedInUser(t, mail('otto.owner'));
  c.developer = await signedInUser(t, mail('dev.eloper'));
  c.financial = await signedInUser(t, mail('fin.ance'));
  c.legal = await signedInUser(t, mail('lee.gal'));
  c.pending = await signedInUser(t, mail('pat.pending'));
  const admin = await signedInUser(t, mail('ada.admin'), { admin: true });
  const org = await createOrg(c.creator, `Acme ${n}`);
  const roles: [Actor, string, string][] = [
    ['owner', 'otto.owner', 'organization-admin'],
    ['developer', 'dev.eloper', 'organization-developer'],
    ['financial', 'fin.ance', 'organization-financial'],
    ['legal', 'lee.gal', 'organization-le'],
    ['pending', 'pat.pending', 'organization-developer'],
  ];
  for (const [actor, who, role] of roles) {
    expect((await invite(c.creator, org.id, mail(who), [role])).status).toBe(201);
    if (actor !== 'pending') await accept(c[actor], org.id);
  }
  return { org, c, admin };
}

/** A small secured bank API as the catalog stores it (converted OpenAPI 3.1). */
export const BANK_API = {
  openapi: '3.1.0',
  info: { title: 'Bank accounts', version: '1.0.0' },
  servers: [{ url: 'https://api.bank.example/v1' }],
  security: [{ bankOAuth: ['accounts:read'] }],
  components: {
    securitySchemes: {
      bankOAuth: {
        type: 'oauth2',
        flows: {
          clientCredentials: {
            tokenUrl: 'https://bank.example/oauth/token',
            scopes: { 'accounts:read': 'Read accounts', 'payments:write': 'Pay' },
          },
        },
      },
    },
  },
  paths: {
    '/accounts': {
      get: {
        operationId: 'listAccounts',
        responses: {
          '200': { description: 'Accounts', content: { 'application/json': { example: { data: [] } } } },
        },
      },
    },
    '/accounts/{accountId}': {
      parameters: [{ name: 'accountId', in: 'path', required: true, schema: { type: 'string' } }],
      get: {
        operationId: 'getAccount',
        responses: {
          '200': { description: 'One', content: { 'application/json': { example: { accountId: 'acc-1' } } } },
          '404': { description: 'Not found' },
        },
      },
    },
    '/payments': {
      post: {
        operationId: 'pay',
        security: [{ bankOAuth: ['payments:write'] }],
        responses: {
          '201': { description: 'Paid', content: { 'application/json': { example: { id: 'p-1' } } } },
        },
      },
    },
  },
};

export interface ProductInput {
  alias: string;
  title?: string;
  scope?: string;
  scopeProduction?: string;
  psd2?: boolean;
  deprecated?: boolean;
  commercial?: boolean;
  weight?: number;
  /** Adds an API documentation (sandbox alias) linked to the product. */
  documentation?: string;
}

/** Inserts a product (and optionally its documentation) into the catalog tables of 0040-catalog. */
export async function insertProduct(db: Db, p: ProductInput): Promise<{ uuid: string; id: number }> {
  const product = await sql<{ id: number; uuid: string }>`insert into api_products
      (title, alias, version, scope, scope_production, psd2_certificate_required, deprecated, commercial, weight)
    values (${p.title ?? p.alias}, ${p.alias}, ${'1.0'}, ${p.scope ?? ''}, ${p.scopeProduction ?? ''},
      ${p.psd2 ?? false}, ${p.deprecated ?? false}, ${p.commercial ?? false}, ${p.weight ?? 0})
    returning id, uuid`.execute(db);
  const row = product.rows[0]!;
  if (p.documentation) {
    const doc = await sql<{ id: number }>`insert into api_documentations
        (alias, title, version, source, source_format, converted, content_hash)
      values (${p.documentation}, ${`${p.title ?? p.alias} documentation`}, ${'1.0.0'}, ${JSON.stringify(BANK_API)},
        ${'json'}, ${JSON.stringify(BANK_API)}::jsonb, ${`hash-${p.documentation}`})
      on conflict (alias) do update set title = excluded.title
      returning id`.execute(db);
    await sql`insert into api_product_documentations (product_id, documentation_id) values (${row.id}, ${doc.rows[0]!.id})`.execute(
      db,
    );
  }
  return row;
}

export function appDocument(attributes: Record<string, unknown>, relationships?: Record<string, unknown>) {
  return { data: { type: 'node--application', attributes, ...(relationships ? { relationships } : {}) } };
}

export const VALID_APP = {
  title: 'Budget app',
  field_description: { value: '<p>Reads balances</p>', format: 'basic_html' },
  field_allowed_grant_types: ['client_credentials'],
  field_oauth_redirect_uri: [],
  field_postlogout_redirect_uri: [],
};

export interface AppResource {
  id: string;
  attributes: Record<string, unknown> & { drupal_internal__nid: number; title: string };
  relationships: Record<string, { data: unknown }>;
  meta: { permissions: string[]; application: Application };
}

export async function createApp(
  client: TestClient,
  orgUuid: string,
  attributes: Record<string, unknown> = {},
): Promise<Application> {
  const res = await client.send(
    'POST',
    `/phpsdk/organization/apps/create?ORGANIZATION=${orgUuid}&_format=json`,
    appDocument({ ...VALID_APP, ...attributes }),
  );
  expect(res.status).toBe(201);
  return (await body<{ data: AppResource }>(res)).data.meta.application;
}

export async function getApp(client: TestClient, id: string): Promise<Application> {
  const res = await client.get(`/jsonapi/node/application/${id}`);
  expect(res.status).toBe(200);
  return (await body<{ data: AppResource }>(res)).data.meta.application;
}

export function subscription(
  client: TestClient,
  type: 'subscribe' | 'unsubscribe',
  application: string,
  product: string,
) {
  return client.send('POST', '/api/application', { type, application, product }, 'application/json');
}

/** POST /oauth/token with client_credentials; returns the status and body. */
export async function clientCredentials(t: TestApp, clientId: string, secret: string, scope?: string) {
  const res = await fetch(`${t.baseUrl}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: clientId,
      client_secret: secret,
      ...(scope ? { scope } : {}),
    }),
  });
  return {
    status: res.status,
    body: (await res.json()) as {
      access_token?: string;
      scope?: string;
      error?: string;
      error_description?: string;
    },
  };
}

export async function sandbox(t: TestApp, path: string, token: string) {
  const res = await fetch(`${t.baseUrl}/sandbox/${path}`, { headers: { authorization: `Bearer ${token}` } });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/**
 * Stores a processed document in the catalog's `api_documentations` (migration 0040-catalog) under
 * `alias`, without a product; a different `hash` replaces the stored one (a re-import).
 */
export async function insertDocument(
  db: Db,
  alias: string,
  doc: { info: { title: string } },
  hash: string,
): Promise<void> {
  await sql`insert into api_documentations (alias, title, version, source, source_format, converted, content_hash)
    values (${alias}, ${doc.info.title}, ${'1.0.0'}, ${JSON.stringify(doc)}, ${'json'}, ${JSON.stringify(doc)}::jsonb, ${hash})
    on conflict (alias) do update set converted = excluded.converted, content_hash = excluded.content_hash`.execute(
    db,
  );
}

/** An OpenAPI 3.1 document whose paths each answer GET with their example, without security. */
export function examplesApi(title: string, examples: Record<string, unknown>) {
  const get = (example: unknown) => ({
    security: [],
    responses: { '200': { description: 'The example', content: { 'application/json': { example } } } },
  });
  return {
    openapi: '3.1.0',
    info: { title, version: '1.0.0' },
    paths: Object.fromEntries(
      Object.entries(examples).map(([path, example]) => [path, { get: get(example) }]),
    ),
  };
}

/** A new sandbox client with `scopes`, and an access token it got by client credentials. */
export async function clientCredentialsToken(t: TestApp, scopes: string[]) {
  const { clientId, clientSecret } = await t.app.oauthClients.createClient({
    environment: 'DEVELOPMENT',
    grantTypes: ['client_credentials'],
    scopes,
  });
  const res = await clientCredentials(t, clientId, clientSecret!);
  expect(res.status).toBe(200);
  return { clientId, token: res.body.access_token! };
}

export const GO_LIVE = {
  field_developer_type: 'Company',
  field_first_name: 'Ada',
  field_last_name: 'Lovelace',
  field_company_name: 'Acme Ltd',
  field_address: '1 Main Street, London',
  field_email: 'ada@acme.example',
  field_site_url_download_location: 'https://acme.example/app',
  field_use_cases: 'Shows balances of all accounts in one place.',
};

export function goLive(
  client: TestClient,
  applicationUuid: string,
  attributes: Record<string, unknown> = GO_LIVE,
) {
  return client.send('POST', '/jsonapi/node/go_live_form', {
    data: {
      type: 'node--go_live_form',
      attributes,
      relationships: { field_application: { data: { type: 'node--application', id: applicationUuid } } },
    },
  });
}
