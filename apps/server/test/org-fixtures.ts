import type { ProviderRole } from '@portico/contracts/provider-roles';
import { expect } from 'vitest';
import { hashPassword } from '../src/lib/passwords.ts';
import { displayName, usersRepo } from '../src/modules/identity/users-repo.ts';
import { TestClient, signIn } from './http-client.ts';
import type { TestApp } from './test-app.ts';

/** Helpers for the organization tests: users, signed-in clients and the calls of spec A 7. */
export const PASSWORD = 'Org-tests#2026';

export interface JsonApiErrorBody {
  errors: { status: string; title: string; detail: string; source?: { pointer?: string } }[];
}

export interface OrgResource {
  id: string;
  attributes: { label: string; field_body: { value: string; format: string }; drupal_internal__id: number };
  relationships: {
    field_image: { data: { id: string } | null };
    field_documents: { data: { id: string }[] };
    uid: { data: { id: string } | null };
  };
  meta: {
    membership: { id: string; status: string; roles: string[] };
    permissions: string[];
    isCreator: boolean;
  };
}

export interface MemberResource {
  id: string;
  attributes: {
    uuid: string | null;
    membershipUuid: string;
    userName: string;
    email: string;
    status: string;
    roles: string[];
    resentInvitation: boolean;
    isCreator: boolean;
  };
}

export interface UserOptions {
  admin?: boolean;
  verified?: boolean;
  /** Provider roles besides the administrator (issue 27). */
  roles?: readonly Exclude<ProviderRole, 'administrator'>[];
}

export async function createUser(t: TestApp, email: string, options: UserOptions = {}) {
  const [first = 'Test', last = 'User'] = email.split('@')[0]!.split('.');
  const created = await usersRepo(t.app.db).create({
    email,
    name: displayName(first, last, email),
    firstName: first,
    lastName: last,
    passwordHash: await hashPassword(PASSWORD),
    isAdmin: options.admin ?? false,
    emailVerified: options.verified ?? true,
  });
  if (!created) throw new Error(`could not create ${email}`);
  for (const role of options.roles ?? []) {
    await t.app.db.insertInto('provider_roles').values({ user_id: created.id, role }).execute();
  }
  return created;
}

/** A new account, signed in through the real sign-in flow. */
export async function signedInUser(t: TestApp, email: string, options: UserOptions = {}) {
  await createUser(t, email, options);
  const client = new TestClient(t.baseUrl);
  const result = await signIn(client, email, PASSWORD);
  expect(result.status).toBe(200);
  return client;
}

/** Opens the newest verification link sent to `email` (outbox) and confirms it, as its owner would. */
export async function verifyThroughOutbox(t: TestApp, email: string): Promise<void> {
  const mail = await t.app.db
    .selectFrom('outbox')
    .select('text_body')
    .where('to_address', '=', email)
    .where('text_body', 'like', '%/idp/verify/%')
    .orderBy('id', 'desc')
    .executeTakeFirstOrThrow();
  const link = /https?:\/\/\S+\/idp\/verify\/\S+/.exec(mail.text_body)?.[0];
  if (!link) throw new Error(`no verification link in the mail to ${email}`);
  const browser = new TestClient(t.baseUrl);
  const page = await browser.get(new URL(link).pathname);
  expect(page.status).toBe(200);
  const confirmed = await browser.postForm(new URL(link).pathname, {});
  expect(confirmed.status).toBe(200);
}

export async function body<T>(res: Response): Promise<T> {
  return (await res.json()) as T;
}

export function orgDocument(label: string, description = '') {
  return {
    data: {
      type: 'group--organization',
      attributes: { label, field_body: { value: description, format: 'plain_text' } },
    },
  };
}

export async function createOrg(client: TestClient, label: string): Promise<OrgResource> {
  const res = await client.send('POST', '/jsonapi/group/organization', orgDocument(label, `About ${label}`));
  expect(res.status).toBe(201);
  return (await body<{ data: OrgResource }>(res)).data;
}

export function invite(client: TestClient, gid: string, email: string, roles: string[]) {
  return client.send(
    'POST',
    '/phpsdk/organization/invite',
    { group_roles: roles, gid, email },
    'application/json',
  );
}

/** The caller's membership of an organization, found through their organization list. */
export async function myMembership(client: TestClient, orgUuid: string) {
  const list = await body<{ data: OrgResource[] }>(
    await client.get('/jsonapi/group/organization?page[limit]=50'),
  );
  return list.data.find((o) => o.id === orgUuid)?.meta.membership;
}

export async function accept(client: TestClient, orgUuid: string) {
  const membership = await myMembership(client, orgUuid);
  expect(membership?.status).toBe('pending_invitation');
  const res = await client.send(
    'PATCH',
    `/jsonapi/group_content/organization-group_membership/${membership!.id}`,
    {
      data: {
        type: 'group_content--organization-group_membership',
        id: membership!.id,
        attributes: { field_status: 'active' },
      },
    },
  );
  expect(res.status).toBe(200);
  return membership!.id;
}

export async function upload(
  client: TestClient,
  orgUuid: string,
  field: 'field_image' | 'field_documents',
  fileName: string,
  data: Buffer | string,
) {
  client.csrfToken ??= await (await client.get('/session/token')).text();
  return client.request(`/jsonapi/group/organization/${field}?organization=${orgUuid}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/octet-stream',
      'content-disposition': `file; filename="${fileName}"`,
      'x-csrf-token': client.csrfToken,
    },
    body: typeof data === 'string' ? Buffer.from(data) : data,
  });
}

export const CERT_PEM = `-----BEGIN CERTIFICATE-----
MIIBhjCCASugAwIBAgIUIhXax3a7nh4JyhkkMfJ4mKc6vXkwCgYIKoZIzj0EAwIw
FzEVMBMGA1UEAwwMcG9ydGljby10ZXN0MCAXDTI2MTEyMjE0MjMyNloYDzIxMjYx
MDI5MTQyMzI2WjAXMRUwEwYDVQQDDAxwb3J0aWNvLXRlc3QwWTATBgcqhkjOPQIB
BggqhkjOPQMBBwNCAATyEKNItm9GWiWEAoL0cW7OjDctPcVebkNVz7Aa303epRDb
/BjBn5Z7ptEUTzdI5ZwSARucw4ZAPFFUw4PDDqkBo1MwUTAdBgNVHQ4EFgQU8cfm
jvTlAT74ERgoB0Nz260dAhAwHwYDVR0jBBgwFoAU8cfmjvTlAT74ERgoB0Nz260d
AhAwDwYDVR0TAQH/BAUwAwEB/zAKBggqhkjOPQQDAgNJADBGAiEA4V5Kks9zI0VF
B37OeTIDzD8PM4QqzuFRp6CQJyXJC0wCIQCfNgdbrghEJ9jdImXGyPehgOgpkX9B
1ugf1FUihBwYng==
-----END CERTIFICATE-----
`;

/** The smallest valid PNG (1x1 transparent pixel). */
export const PNG_1X1 = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);
