import { en } from '@portico/contracts/messages';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn, TestClient } from './http-client.ts';
import {
  body,
  createOrg,
  createUser,
  myMembership,
  PASSWORD,
  signedInUser,
  type JsonApiErrorBody,
} from './org-fixtures.ts';
import { appDocument, VALID_APP } from './applications-fixtures.ts';
import { startTestApp, type TestApp } from './test-app.ts';

/**
 * Text no database column can hold (a NUL byte, a lone surrogate) and numbers beyond the columns'
 * range are a 400 naming the field, wherever they come in: path, query, cookie, JSON, form. Never
 * a 500 from the database, and nothing half-written.
 */
let t: TestApp;
let anon: TestClient;
let user: TestClient;
let admin: TestClient;
let orgId: string;
/** Every GET route the portal registers (for the walk over the JSON:API collections' filters). */
const getRoutes = new Set<string>();

beforeAll(async () => {
  t = await startTestApp({}, undefined, (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (methods.includes('GET')) getRoutes.add(route.url);
  });
  anon = new TestClient(t.baseUrl);
  user = await signedInUser(t, 'nul.tester@example.com');
  admin = await signedInUser(t, 'nul.admin@example.com', { admin: true });
  orgId = (await createOrg(user, 'Input checks')).id;
});
afterAll(async () => {
  await t?.close();
});

interface Refusal {
  status: number;
  code?: string;
  parameter?: string;
  pointer?: string;
  title: string;
}

async function refusal(res: Response): Promise<Refusal> {
  const text = await res.text();
  const error = (JSON.parse(text) as JsonApiErrorBody & { errors: { code?: string }[] }).errors[0]!;
  return {
    status: res.status,
    code: error.code,
    title: error.title,
    ...(error.source?.pointer ? { pointer: error.source.pointer } : {}),
    ...((error.source as { parameter?: string } | undefined)?.parameter
      ? { parameter: (error.source as { parameter: string }).parameter }
      : {}),
  };
}

/** GETs and HEADs whose path or query carries a NUL byte, each with the parameter the 400 names. */
const NUL_URLS: [string, string][] = [
  ['/jsonapi/node/api_product/%00', 'path'],
  ['/sandbox/%00/x', 'path'],
  ['/files/%00/x.pdf', 'path'],
  ['/api/products/%00/newest-version', 'path'],
  ['/api/apidocs/%00/index', 'path'],
  ['/jsonapi/group/organization/%00', 'path'],
  ['/admin-api/outbox/%00', 'path'],
  ['/some/page%00', 'path'],
  ['/api/swagger?alias=%00', 'alias'],
  ['/api/swagger?api=x%00y', 'api'],
  ['/phpsdk/products/getProductUuid?pathAlias=%00', 'pathAlias'],
  ['/jsonapi/node/api_product?filter[title]=%00', 'filter[title]'],
  ['/jsonapi/node/api_documentation?filter[title][value]=a%00', 'filter[title][value]'],
  ['/jsonapi/group/organization?sort=label%00', 'sort'],
  ['/phpsdk/organization/apps?organization=%00', 'organization'],
  ['/openid-connect/authorization-info/generic?returnTo=/%00', 'returnTo'],
  ['/idp/auth?client_id=%00', 'client_id'],
  ['/oauth/auth?client_id=%00&response_type=code', 'client_id'],
];

describe('text no column can hold', () => {
  it.each(NUL_URLS)('GET %s is a 400 naming %s, anonymous and signed in', async (url, parameter) => {
    for (const client of [anon, user, admin]) {
      const res = await client.get(url);
      expect(res.status, url).toBe(400);
      const error = await refusal(res);
      expect(error.code).toBe('invalid_text');
      expect(error.parameter).toBe(parameter);
    }
  });

  it('names the query parameter in the catalogue message', async () => {
    const error = await refusal(await anon.get('/api/swagger?alias=%00'));
    expect(error.title).toBe(en.api.invalidText.replace('{{field}}', 'alias'));
  });

  it('refuses a session cookie that is not text before looking it up', async () => {
    const res = await anon.get('/session/token', { cookie: `${t.app.sessionCookieName}=a%00b` });
    expect(res.status).toBe(400);
    expect((await refusal(res)).parameter).toBe(t.app.sessionCookieName);
    // Cookies the portal does not read are none of its business.
    expect((await anon.get('/session/token', { cookie: 'other=a%00b' })).status).toBe(200);
    // The OIDC provider's session cookie is read on sign-out.
    const [name, value] = user.sessionCookie()!;
    const res2 = await fetch(`${t.baseUrl}/user/logout`, {
      headers: { cookie: `${name}=${value}; _session=%00` },
    });
    expect(res2.status).toBe(400);
    expect((await refusal(res2)).parameter).toBe('_session');
  });

  it('names the JSON field by its pointer and writes nothing', async () => {
    for (const label of ['Acme\u0000', 'Acme\ud800']) {
      const res = await user.send('POST', '/jsonapi/group/organization', {
        data: { type: 'group--organization', attributes: { label, field_body: { value: '', format: 'x' } } },
      });
      expect(res.status).toBe(400);
      const error = await refusal(res);
      expect(error).toMatchObject({ code: 'invalid_text', pointer: '/data/attributes/label' });
    }
    const list = await body<{ data: { attributes: { label: string } }[] }>(
      await user.get('/jsonapi/group/organization?page[limit]=50'),
    );
    expect(list.data.map((o) => o.attributes.label)).toEqual(['Input checks']);
  });

  it('checks keys, arrays and every JSON route: applications, invitations, newsletter, profile', async () => {
    const cases: [string, string, unknown, string][] = [
      [
        'POST',
        `/phpsdk/organization/apps/create?ORGANIZATION=${orgId}`,
        appDocument({ ...VALID_APP, field_oauth_redirect_uri: ['https://ok.example/cb', 'https://x\u0000'] }),
        '/data/attributes/field_oauth_redirect_uri/1',
      ],
      [
        'POST',
        '/phpsdk/organization/invite',
        { gid: orgId, email: 'a\u0000@example.com', group_roles: [] },
        '/email',
      ],
      ['POST', '/api/newsletter', { email: '\u0000' }, '/email'],
      [
        'PATCH',
        `/jsonapi/group/organization/${orgId}`,
        { data: { 'bad\u0000key': 1 } },
        '/data/bad\\u0000key',
      ],
    ];
    for (const [method, url, doc, pointer] of cases) {
      const res = await user.send(method, url, doc, 'application/json');
      expect(res.status, url).toBe(400);
      const error = await refusal(res);
      expect(error.code).toBe('invalid_text');
      expect(error.pointer, url).toBe(pointer.replace('\\u0000', '\ufffd'));
    }
  });

  it('refuses sign-in and sign-up form fields with a NUL byte', async () => {
    const c = new TestClient(t.baseUrl);
    const info = (await (await c.get('/openid-connect/authorization-info/generic?screen=signup')).json()) as {
      baseUrl: string;
      parameters: Record<string, string>;
    };
    const { url } = await c.follow(`${info.baseUrl}?${new URLSearchParams(info.parameters)}`);
    const path = new URL(url).pathname;
    const signUp = await c.postForm(`${path}/signup`, {
      firstName: 'Nul\u0000',
      lastName: 'Byte',
      email: 'nul.byte@example.com',
      password: 'long-enough-1',
    });
    expect(signUp.status).toBe(400);
    expect((await refusal(signUp)).pointer).toBe('/firstName');
    const signIn = await c.postForm(`${path}/login`, { email: '\u0000', password: 'x' });
    expect(signIn.status).toBe(400);
    expect((await refusal(signIn)).pointer).toBe('/email');
    // The OAuth servers read their own form bodies: a client id that is no text is no client.
    const token = await c.postForm('/oauth/token', { grant_type: 'client_credentials', client_id: '\u0000' });
    expect(token.status).toBeLessThan(500);
    const idpToken = await c.postForm('/idp/token', { grant_type: 'authorization_code', code: '\u0000' });
    expect(idpToken.status).toBeLessThan(500);
  });
});

describe('numbers beyond their range', () => {
  it.each([
    ['/phpsdk/organization/apps?organization=ORG&page[offset]=1e20', 'page[offset]'],
    ['/phpsdk/organization/apps?organization=ORG&page[offset]=99999999999999999999', 'page[offset]'],
    ['/phpsdk/organization/apps?organization=ORG&page[limit]=1e1', 'page[limit]'],
    ['/admin-api/go-live?page[offset]=1e20', 'page[offset]'],
    ['/admin-api/outbox?page[offset]=1e20', 'page[offset]'],
    ['/jsonapi/group/organization?page[offset]=99999999999999999999', 'page[offset]'],
    ['/jsonapi/node/api_product?page[offset]=1e20', 'page[offset]'],
    ['/admin-api/outbox/99999999999999999999', 'id'],
    ['/admin-api/outbox/2147483648', 'id'],
  ])('GET %s is a 400 naming %s', async (url, parameter) => {
    const res = await admin.get(url.replace('ORG', orgId));
    expect(res.status, url).toBe(400);
    expect((await refusal(res)).parameter).toBe(parameter);
  });

  it('treats ids beyond the integer range as unknown where a uuid may stand instead', async () => {
    const big = '99999999999999999999';
    for (const url of [
      `/admin-api/go-live/${big}`,
      `/jsonapi/node/application/${big}`,
      `/jsonapi/group/organization/${big}`,
      `/phpsdk/organization/apps?organization=${big}`,
      `/jsonapi/node/api_product/${big}`,
    ]) {
      const res = await admin.get(url);
      expect(res.status, url).toBe(404);
    }
    const resend = await user.send(
      'POST',
      '/phpsdk/organization/invite-resend',
      { gid: orgId, membershipId: 1e20 },
      'application/json',
    );
    expect(resend.status).toBe(404);
  });

  it('refuses filter values beyond an integer field', async () => {
    const res = await anon.get('/jsonapi/node/api_product?filter[drupal_internal__nid]=99999999999999');
    expect(res.status).toBeLessThan(500);
  });
});

/**
 * Every JSON:API collection's filters, found through the query layer itself: a filter on an unknown
 * path is a 400 listing the filterable fields, and a value that does not fit says what the field
 * expects ("a whole number from -2147483648 to 2147483647"). So a field added to any resource
 * description is walked too, and a value beyond its column's range is a 400 naming the filter
 * parameter, the path and the range in every spelling of a condition, never the database's 500.
 */
describe('filter values beyond their column, on every JSON:API collection', () => {
  interface IntegerField {
    url: string;
    path: string;
    min: bigint;
    max: bigint;
  }
  const q = encodeURIComponent;

  async function filterFields(url: string): Promise<string[] | undefined> {
    const res = await admin.get(`${url}?filter[zz_probe]=1`);
    if (res.status !== 400 || !res.headers.get('content-type')?.includes('json')) {
      await res.arrayBuffer();
      return undefined;
    }
    const match = /filterable fields: (.*)\.$/.exec((await refusal(res)).title);
    return match ? match[1]!.split(', ') : undefined;
  }

  let walked: Promise<{ collections: string[]; fields: string[][]; integers: IntegerField[] }> | undefined;
  const walk = () => (walked ??= walkCollections());

  async function walkCollections(): Promise<{
    collections: string[];
    fields: string[][];
    integers: IntegerField[];
  }> {
    const collections: string[] = [];
    const fields: string[][] = [];
    const integers: IntegerField[] = [];
    for (const url of [...getRoutes].sort()) {
      if (url.includes(':') || url.includes('*') || /^\/(idp|oauth|sandbox)\b/.test(url)) continue;
      const paths = await filterFields(url);
      if (!paths) continue;
      collections.push(url);
      for (const path of paths) {
        fields.push([url, path]);
        const res = await admin.get(`${url}?filter[${path}]=not-a-value`);
        if (res.status !== 400) {
          await res.arrayBuffer();
          continue;
        }
        const title = (await refusal(res)).title;
        if (!title.includes('expected a whole number')) continue;
        const range = /from (-?\d+) to (-?\d+)\.$/.exec(title);
        expect(range, `${url} ${path}: ${title}`).not.toBeNull();
        integers.push({ url, path, min: BigInt(range![1]!), max: BigInt(range![2]!) });
      }
    }
    return { collections, fields, integers };
  }

  it('finds the collections and their integer fields', async () => {
    const { collections, integers } = await walk();
    expect(collections).toEqual(
      expect.arrayContaining([
        '/jsonapi/user/user',
        '/jsonapi/node/api_product',
        '/jsonapi/node/forum',
        '/jsonapi/comment/comment_forum',
        '/jsonapi/group/organization',
        '/jsonapi/group_content/organization-group_membership',
        '/admin-api/outbox',
      ]),
    );
    expect(integers.map((f) => `${f.url} ${f.path}`)).toEqual(
      expect.arrayContaining([
        '/jsonapi/user/user drupal_internal__uid',
        '/jsonapi/node/api_product field_weight',
        '/jsonapi/node/forum taxonomy_forums.drupal_internal__tid',
        '/jsonapi/node/forum comment_forum.comment_count',
        '/jsonapi/comment/comment_forum pid',
        '/jsonapi/group/organization drupal_internal__id',
      ]),
    );
  });

  it('refuses a value beyond an integer field in every spelling, for every caller', async () => {
    const { integers } = await walk();
    const refused = new Map<TestClient, Set<string>>();
    for (const client of [user, anon]) {
      const urls = new Set<string>();
      for (const url of new Set(integers.map((f) => f.url))) {
        const res = await client.get(url);
        await res.arrayBuffer();
        if (res.status === 401 || res.status === 403) urls.add(url);
      }
      refused.set(client, urls);
    }
    const wrong: string[] = [];
    for (const f of integers) {
      for (const value of [String(f.max + 1n), String(f.min - 1n), '99999999999999999999999']) {
        const v = q(value);
        const p = f.path;
        const c = 'filter[c][condition]';
        const spellings: [string, string][] = [
          [`filter[${p}]=${v}`, `filter[${p}]`],
          [`filter[${p}][value]=${v}&filter[${p}][operator]=${q('>=')}`, `filter[${p}][value]`],
          [`filter[x][path]=${p}&filter[x][value]=${v}`, 'filter[x][value]'],
          [`${c}[path]=${p}&${c}[operator]=${q('<')}&${c}[value]=${v}`, `${c}[value]`],
          [`${c}[path]=${p}&${c}[operator]=IN&${c}[value][]=1&${c}[value][]=${v}`, `${c}[value]`],
          [`${c}[path]=${p}&${c}[operator]=${q('NOT IN')}&${c}[value][0]=${v}`, `${c}[value]`],
          [`${c}[path]=${p}&${c}[operator]=BETWEEN&${c}[value][]=0&${c}[value][]=${v}`, `${c}[value]`],
          [
            `filter[g][group][conjunction]=OR&${c}[memberOf]=g&${c}[path]=${p}&${c}[operator]=${q('NOT BETWEEN')}&${c}[value][]=${v}&${c}[value][]=1`,
            `${c}[value]`,
          ],
        ];
        for (const [search, parameter] of spellings) {
          for (const client of [admin, user, anon]) {
            const res = await client.get(`${f.url}?${search}`);
            // A route this caller may not call at all refuses before reading the query.
            if ([401, 403].includes(res.status) && refused.get(client)?.has(f.url)) {
              await res.arrayBuffer();
              continue;
            }
            const text = await res.text();
            const error =
              res.status === 400
                ? (JSON.parse(text) as { errors: Record<string, unknown>[] }).errors[0]
                : undefined;
            const source = error?.source as { parameter?: string } | undefined;
            // An operator a field does not take is refused first, naming the operator.
            const ok =
              res.status === 400 &&
              error?.code === 'invalid_query' &&
              (source?.parameter?.endsWith('[operator]') ||
                (source?.parameter === parameter &&
                  error.title ===
                    `'${value}' is not a valid value for '${p}': expected a whole number from ${f.min} to ${f.max}.`));
            if (!ok) wrong.push(`${f.url}?${search}: ${res.status} ${text.slice(0, 200)}`);
          }
        }
      }
      // The ends of the range still reach the database and answer.
      for (const value of [f.max, f.min]) {
        const res = await admin.get(`${f.url}?filter[${f.path}]=${q(String(value))}`);
        await res.arrayBuffer();
        if (res.status >= 500 || (res.status === 400 && !f.url.includes('membership')))
          wrong.push(`${f.url}?filter[${f.path}]=${value}: ${res.status}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('never answers a 5xx to a value of any field, whatever its kind', async () => {
    const { fields } = await walk();
    const values = [
      '2147483648',
      '-9223372036854775809',
      '1e400',
      'NaN',
      '0000-01-01',
      '0099-12-31',
      '2024-02-30',
      '2024-02-03T23:59:60',
      '9999-12-31T23:59:59-14:00',
      '999999999999',
      '00000000-0000-0000-0000-000000000000',
      'ZZZZZZZZ-0000-0000-0000-000000000000',
      'true',
      '%_\\',
    ];
    const wrong: string[] = [];
    for (const [url, path] of fields) {
      for (const value of values) {
        for (const operator of ['=', '>', 'CONTAINS']) {
          const res = await admin.get(
            `${url}?filter[${path}][value]=${q(value)}&filter[${path}][operator]=${q(operator)}`,
          );
          const text = await res.text();
          if (res.status >= 500)
            wrong.push(`${url} ${path} ${operator} ${value}: ${res.status} ${text.slice(0, 200)}`);
        }
      }
    }
    expect(wrong).toEqual([]);
    // 42 requests per filterable field of every collection: the work grows with the API (every
    // new collection adds to it), so its budget is the work's, not the default for a few requests.
  }, 300_000);
});

describe('JSON:API writes refuse fields they do not take', () => {
  const fieldError = async (res: Response) => {
    const error = (await body<JsonApiErrorBody & { errors: { code?: string }[] }>(res)).errors[0];
    return [res.status, error?.code, error?.source?.pointer, error?.title];
  };

  it('applications: create and edit name an unknown attribute or relationship, and write nothing', async () => {
    const create = (attributes: Record<string, unknown>, relationships?: Record<string, unknown>) =>
      user.send(
        'POST',
        `/phpsdk/organization/apps/create?ORGANIZATION=${orgId}`,
        appDocument({ ...VALID_APP, ...attributes }, relationships),
      );
    expect(await fieldError(await create({ status: 'PRODUCTION' }))).toEqual([
      400,
      'unknown_field',
      '/data/attributes/status',
      'status is not an attribute of node--application that can be written.',
    ]);
    expect(await fieldError(await create({}, { uid: { data: null } }))).toEqual([
      400,
      'unknown_field',
      '/data/relationships/uid',
      'uid is not a relationship of node--application that can be written.',
    ]);
    const created = await create({ title: 'Fields app' });
    expect(created.status).toBe(201);
    const id = (await body<{ data: { id: string } }>(created)).data.id;
    const edit = await user.send(
      'PATCH',
      `/jsonapi/node/application/${id}/edit_app_custom`,
      appDocument({ title: 'Renamed', foo: 1 }),
    );
    expect((await fieldError(edit)).slice(0, 3)).toEqual([400, 'unknown_field', '/data/attributes/foo']);
    const app = await user.get(`/jsonapi/node/application/${id}`);
    expect((await body<{ data: { attributes: { title: string } } }>(app)).data.attributes.title).toBe(
      'Fields app',
    );
  });

  it('organizations: create and edit name an unknown attribute or relationship, and write nothing', async () => {
    const create = (attributes: Record<string, unknown>, relationships?: Record<string, unknown>) =>
      user.send('POST', '/jsonapi/group/organization', {
        data: {
          type: 'group--organization',
          attributes: { label: 'Unknown fields', ...attributes },
          ...(relationships ? { relationships } : {}),
        },
      });
    expect(await fieldError(await create({ foo: 1 }))).toEqual([
      400,
      'unknown_field',
      '/data/attributes/foo',
      'foo is not an attribute of group--organization that can be written.',
    ]);
    expect(await fieldError(await create({ created: '2020-01-01T00:00:00Z' }))).toEqual([
      400,
      'unknown_field',
      '/data/attributes/created',
      'created is not an attribute of group--organization that can be written.',
    ]);
    expect((await fieldError(await create({}, { uid: { data: null } }))).slice(0, 3)).toEqual([
      400,
      'unknown_field',
      '/data/relationships/uid',
    ]);
    const mine = await body<{ data: { attributes: { label: string } }[] }>(
      await user.get('/jsonapi/group/organization?page[limit]=50'),
    );
    expect(mine.data.map((o) => o.attributes.label)).not.toContain('Unknown fields');

    const edit = (attributes: Record<string, unknown>, relationships?: Record<string, unknown>) =>
      user.send('PATCH', `/jsonapi/group/organization/${orgId}`, {
        data: {
          type: 'group--organization',
          id: orgId,
          attributes: { label: 'Renamed', ...attributes },
          ...(relationships ? { relationships } : {}),
        },
      });
    expect((await fieldError(await edit({ foo: 1 }))).slice(0, 3)).toEqual([
      400,
      'unknown_field',
      '/data/attributes/foo',
    ]);
    expect((await fieldError(await edit({}, { members: { data: [] } }))).slice(0, 3)).toEqual([
      400,
      'unknown_field',
      '/data/relationships/members',
    ]);
    const org = await body<{ data: { attributes: { label: string } } }>(
      await user.get(`/jsonapi/group/organization/${orgId}`),
    );
    expect(org.data.attributes.label).toBe('Input checks');
    // A bad value of a field it takes stays the form's 422.
    expect((await edit({ label: '' })).status).toBe(422);
  });

  it('memberships: a change names an unknown attribute or relationship, and writes nothing', async () => {
    const membership = (await myMembership(user, orgId))!;
    const patch = (attributes?: Record<string, unknown>, relationships?: Record<string, unknown>) =>
      user.send('PATCH', `/jsonapi/group_content/organization-group_membership/${membership.id}`, {
        data: {
          type: 'group_content--organization-group_membership',
          id: membership.id,
          ...(attributes ? { attributes } : {}),
          ...(relationships ? { relationships } : {}),
        },
      });
    expect(await fieldError(await patch({ field_status: 'active', foo: 1 }))).toEqual([
      400,
      'unknown_field',
      '/data/attributes/foo',
      'foo is not an attribute of group_content--organization-group_membership that can be written.',
    ]);
    const roles = { data: [{ type: 'group_role--group_role', id: 'organization-developer' }] };
    expect(
      (await fieldError(await patch(undefined, { group_roles: roles, entity_id: { data: null } }))).slice(
        0,
        3,
      ),
    ).toEqual([400, 'unknown_field', '/data/relationships/entity_id']);
    expect((await myMembership(user, orgId))!.roles).toEqual(membership.roles);
    // A bad value of a field it takes stays a 422.
    expect((await patch(undefined, { group_roles: { data: [] } })).status).toBe(422);
  });

  it('go-live requests name an unknown attribute or relationship', async () => {
    const send = (attributes: Record<string, unknown>, relationships: Record<string, unknown> = {}) =>
      user.send('POST', '/jsonapi/node/go_live_form', {
        data: {
          type: 'node--go_live_form',
          attributes,
          relationships: {
            field_application: { data: { type: 'node--application', id: '1' } },
            ...relationships,
          },
        },
      });
    expect(await fieldError(await send({ field_first_name: 'A', status: 'approved' }))).toEqual([
      400,
      'unknown_field',
      '/data/attributes/status',
      'status is not an attribute of node--go_live_form that can be written.',
    ]);
    expect((await fieldError(await send({}, { uid: { data: null } }))).slice(0, 3)).toEqual([
      400,
      'unknown_field',
      '/data/relationships/uid',
    ]);
  });
});

describe('redirect URIs', () => {
  const M = en.applications;

  async function errors(res: Response) {
    expect(res.status).toBe(422);
    return (await body<JsonApiErrorBody>(res)).errors.map((e) => [e.title, e.source?.pointer]);
  }

  it('refuses script and data URIs on create and edit, and keeps native and loopback ones', async () => {
    const create = (uris: string[]) =>
      user.send(
        'POST',
        `/phpsdk/organization/apps/create?ORGANIZATION=${orgId}`,
        appDocument({
          ...VALID_APP,
          field_allowed_grant_types: ['authorization_code'],
          field_oauth_redirect_uri: uris,
        }),
      );
    for (const bad of ['javascript:alert(1)', 'data:text/html,x', 'vbscript:x', 'http://evil.example/cb']) {
      expect(await errors(await create(['https://ok.example/cb', bad]))).toEqual([
        [M.redirectUriNotAllowed, '/data/attributes/field_oauth_redirect_uri/1'],
      ]);
    }
    const ok = await create(['com.example.app:/cb', 'http://127.0.0.1:5000/cb']);
    expect(ok.status).toBe(201);
    const created = (await body<{ data: { id: string } }>(ok)).data;
    const edit = await user.send(
      'PATCH',
      `/jsonapi/node/application/${created.id}/edit_app_custom`,
      appDocument({ field_postlogout_redirect_uri: ['javascript:alert(1)'] }),
    );
    expect(await errors(edit)).toEqual([
      [M.redirectUriNotAllowed, '/data/attributes/field_postlogout_redirect_uri/0'],
    ]);
    // The client still works: its token endpoint answers the client, not a broken registration.
    const app = await body<{ data: { meta: { application: { clientId: { development: string } } } } }>(
      await user.get(`/jsonapi/node/application/${created.id}`),
    );
    expect(app.data.meta.application.clientId.development).toBeTruthy();
  });
});

describe('returnTo', () => {
  it('keeps only a path of this site, as a browser would read it', async () => {
    await createUser(t, 'return.to@example.com');
    for (const [returnTo, expected] of [
      ['/\t/evil.example', null],
      ['/\n/evil.example', null],
      ['/\\evil.example', null],
      ['/.//evil.example', null],
      ['/apps/../organizations?x=1', '/organizations?x=1'],
    ] as const) {
      const c = new TestClient(t.baseUrl);
      const result = await signIn(c, 'return.to@example.com', PASSWORD, { returnTo });
      expect(result.status).toBe(200);
      expect(result.body.returnTo, returnTo).toBe(expected);
    }
  });
});
