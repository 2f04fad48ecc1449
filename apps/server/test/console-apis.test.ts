import type {
  ApiDraft,
  ApiListItem,
  ApplicationNotice,
  NoticeAudience,
  NoticeSent,
} from '@portico/contracts/api-drafts';
import type { OperationDetail, OperationIndex } from '@portico/contracts/catalog';
import { format } from '@portico/contracts/format';
import { en } from '@portico/contracts/messages';
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { audienceCalls } from '../src/modules/applications/notice-routes.ts';
import { appDb } from '../src/modules/applications/tables.ts';
import { clearDraftDocuments } from '../src/modules/catalog/draft-preview.ts';
import { catalogDb } from '../src/modules/catalog/tables.ts';
import { watchEventLoop } from './event-loop-watch.ts';
import { TestClient } from './http-client.ts';
import { largeDocument } from './large-doc-gen.ts';
import { createOrg, signedInUser } from './org-fixtures.ts';
import { startTestApp, type TestApp } from './test-app.ts';

/** An API manager uploads a new version of an API, reviews it, publishes it and notifies (issue 27). */
const M = en.console.apis;
let t: TestApp;
let manager: TestClient;
let admin: TestClient;
let developer: TestClient;
let others: TestClient[];

beforeAll(async () => {
  t = await startTestApp({ IMPORT_CONTENT: 'false' });
  manager = await signedInUser(t, 'apis.manager@example.com', { roles: ['api_manager'] });
  admin = await signedInUser(t, 'apis.admin@example.com', { admin: true });
  developer = await signedInUser(t, 'apis.owner@example.com');
  others = [
    developer,
    await signedInUser(t, 'apis.editor@example.com', { roles: ['content_editor'] }),
    await signedInUser(t, 'apis.agent@example.com', { roles: ['support_agent'] }),
    await signedInUser(t, 'apis.reviewer@example.com', { roles: ['go_live_reviewer'] }),
  ];
});
afterAll(async () => {
  await t?.close();
});

/** Version 1: three operations, no security, so the sandbox answers them as they are. */
const V1 = `openapi: 3.0.3
info:
  title: Pets
  version: '1.0'
paths:
  /pets:
    get:
      summary: List pets
      parameters:
        - name: status
          in: query
          schema:
            type: string
            enum: [available, sold, pending]
      responses:
        '200':
          description: OK
          content:
            application/json:
              schema:
                type: array
                items:
                  $ref: '#/components/schemas/Pet'
              example: [{ name: Rex, tag: dog }]
  /pets/{petId}:
    get:
      summary: Get a pet
      parameters:
        - { name: petId, in: path, required: true, schema: { type: string } }
      responses:
        '200':
          description: OK
          content:
            application/json:
              schema:
                $ref: '#/components/schemas/Pet'
              example: { name: Rex, tag: dog }
    delete:
      summary: Delete a pet
      parameters:
        - { name: petId, in: path, required: true, schema: { type: string } }
      responses:
        '204':
          description: Deleted
components:
  schemas:
    Pet:
      type: object
      properties:
        name: { type: string }
        tag: { type: string }
`;

/**
 * Version 2: DELETE removed, GET /owners added, a new required parameter on GET /pets/{id}, the
 * status enum narrowed, and Pet's `tag` removed from the responses.
 */
const V2 = `openapi: 3.0.3
info:
  title: Pets
  version: '2.0'
paths:
  /pets:
    get:
      summary: List pets
      parameters:
        - name: status
          in: query
          schema:
            type: string
            enum: [available, sold]
      responses:
        '200':
          description: OK
          content:
            application/json:
              schema:
                type: array
                items:
                  $ref: '#/components/schemas/Pet'
              example: [{ name: Rex }]
  /pets/{id}:
    get:
      summary: Get a pet
      parameters:
        - { name: id, in: path, required: true, schema: { type: string } }
        - { name: fields, in: query, required: true, schema: { type: string } }
      responses:
        '200':
          description: OK
          content:
            application/json:
              schema:
                $ref: '#/components/schemas/Pet'
              example: { name: Rex }
  /owners:
    get:
      summary: List owners
      responses:
        '200':
          description: OK
          content:
            application/json:
              example: [{ name: Alice }]
components:
  schemas:
    Pet:
      type: object
      properties:
        name: { type: string }
`;

async function uploadDraft(
  client: TestClient,
  alias: string,
  body: string,
  query: Record<string, string> = {},
) {
  client.csrfToken ??= await (await client.get('/session/token')).text();
  const qs = new URLSearchParams(query).toString();
  return client.request(`/admin-api/catalog/apis/${alias}/drafts${qs ? `?${qs}` : ''}`, {
    method: 'POST',
    headers: { 'content-type': 'application/yaml', 'x-csrf-token': client.csrfToken },
    body,
  });
}
const json = async <T>(res: Response): Promise<T> => (await res.json()) as T;
async function discard(client: TestClient, url: string): Promise<Response> {
  client.csrfToken ??= await (await client.get('/session/token')).text();
  return client.request(url, { method: 'DELETE', headers: { 'x-csrf-token': client.csrfToken } });
}
const count = async (table: string) =>
  Number(
    (await sql<{ n: string }>`select count(*) as n from ${sql.table(table)}`.execute(t.app.db)).rows[0]!.n,
  );

/** The counts a refused call must leave as they were. */
const counters = async () => ({
  drafts: await count('api_drafts'),
  changelog: await count('change_log_entries'),
  notices: await count('application_notices'),
  audit: await count('audit_log'),
  outbox: await count('outbox'),
});

let draftV1: ApiDraft;
let draftV2: ApiDraft;
/** The preview's answer for GET /owners, compared with the published reference's once published. */
let previewOwners = '';
let ownersKey = '';

describe('API versions from the console', () => {
  it('uploads a new API as a draft, publishes it, and the sandbox answers it', async () => {
    const missingProduct = await uploadDraft(manager, 'pets', V1);
    expect(missingProduct.status).toBe(400);
    expect((await json<{ errors: { title: string }[] }>(missingProduct)).errors[0]!.title).toBe(
      M.errors.productRequired,
    );

    const res = await uploadDraft(manager, 'pets', V1, { product: 'pets', filename: 'pets.yaml' });
    expect(res.status, await res.clone().text()).toBe(201);
    draftV1 = (await json<{ data: ApiDraft }>(res)).data;
    expect(draftV1).toMatchObject({
      alias: 'pets',
      title: 'Pets',
      status: 'draft',
      fromVersion: null,
      toVersion: '1.0',
    });
    expect(draftV1.summary.added.map((op) => op.endpoint).sort()).toEqual([
      'DELETE /pets/{petId}',
      'GET /pets',
      'GET /pets/{petId}',
    ]);
    expect(draftV1.summary.breakingCount).toBe(0);
    // A draft is not published: no documentation yet, and the sandbox does not know the alias.
    expect((await fetch(`${t.baseUrl}/sandbox/pets/pets`)).status).toBe(404);

    const published = await manager.send(
      'POST',
      `/admin-api/catalog/apis/pets/drafts/${draftV1.id}/publish`,
      { changelog: draftV1.changelogText },
      'application/json',
    );
    expect(published.status, await published.clone().text()).toBe(200);
    expect((await json<{ data: ApiDraft }>(published)).data.status).toBe('published');
    const sandbox = await fetch(`${t.baseUrl}/sandbox/pets/pets`);
    expect(sandbox.status).toBe(200);
  });

  it('shows every problem of an invalid document with its line, and stores nothing', async () => {
    const before = await counters();
    const broken = V2.replace(
      'enum: [available, sold]\n',
      'enum: [available, sold]\n            minLength: many\n',
    );
    const res = await uploadDraft(manager, 'pets', broken);
    expect(res.status).toBe(422);
    const { errors } = await json<{
      errors: { code: string; source?: { pointer?: string }; meta?: { line?: number } }[];
    }>(res);
    const minLength = errors.find((e) => e.source?.pointer?.endsWith('/minLength'));
    expect(minLength, JSON.stringify(errors)).toBeDefined();
    expect(minLength!.code).toBe('invalid_document');
    expect(minLength!.meta?.line).toBe(15);
    expect(await counters()).toEqual(before);
  });

  it('summarizes a new version against the published one, breaking changes marked', async () => {
    const res = await uploadDraft(manager, 'pets', V2, { filename: 'pets-v2.yaml' });
    expect(res.status, await res.clone().text()).toBe(201);
    draftV2 = (await json<{ data: ApiDraft }>(res)).data;
    expect(draftV2).toMatchObject({ fromVersion: '1.0', toVersion: '2.0', product: { alias: 'pets' } });
    const { summary } = draftV2;
    expect(summary.added.map((op) => op.endpoint)).toEqual(['GET /owners']);
    expect(summary.added[0]!.breaking).toBe(false);
    expect(summary.removed.map((op) => [op.endpoint, op.breaking])).toEqual([['DELETE /pets/{petId}', true]]);
    const changed = Object.fromEntries(summary.changed.map((op) => [op.endpoint, op]));
    expect(Object.keys(changed).sort()).toEqual(['GET /pets', 'GET /pets/{id}']);
    expect(changed['GET /pets']!.changes).toEqual(
      expect.arrayContaining([
        {
          code: 'parameterEnumNarrowed',
          breaking: true,
          text: format(M.changes.parameterEnumNarrowed, { name: 'status', in: 'query', values: '"pending"' }),
        },
        {
          code: 'responseFieldRemoved',
          breaking: true,
          text: format(M.changes.responseFieldRemoved, { status: '200', field: '[].tag' }),
        },
      ]),
    );
    // The path parameter renamed ({petId} to {id}) is the same operation; the new query one is required.
    expect(changed['GET /pets/{id}']!.changes.map((c) => [c.code, c.breaking])).toEqual([
      ['requiredParameterAdded', true],
      ['responseFieldRemoved', true],
    ]);
    expect(summary.breakingCount).toBe(5);
    expect(draftV2.changelogText).toContain('`GET /owners` List owners');
    expect(draftV2.changelogText).toContain('`DELETE /pets/{petId}` Delete a pet');
    expect(draftV2.operations.map((op) => op.endpoint)).toEqual([
      'GET /pets',
      'GET /pets/{id}',
      'GET /owners',
    ]);

    const read = await manager.get(`/admin-api/catalog/apis/pets/drafts/${draftV2.id}`);
    expect(read.status).toBe(200);
    expect((await json<{ data: ApiDraft }>(read)).data).toEqual(draftV2);
    // The published document stays until the draft is published.
    expect((await fetch(`${t.baseUrl}/sandbox/pets/owners`)).status).toBe(404);
    const list = (await json<{ data: ApiListItem[] }>(await manager.get('/admin-api/catalog/apis'))).data;
    expect(list.find((a) => a.alias === 'pets')).toMatchObject({
      version: '1.0',
      operationCount: 3,
      product: { alias: 'pets' },
    });
  });

  it('lists the scopes the operations ask for, new ones marked', async () => {
    const secured = V2.replace(
      '  /owners:\n    get:\n',
      '  /owners:\n    get:\n      security: [{ petstore: [owners:read] }]\n',
    ).replace(
      'components:\n',
      `components:
  securitySchemes:
    petstore:
      type: oauth2
      flows:
        clientCredentials:
          tokenUrl: https://example.com/token
          scopes: { 'owners:read': Read owners }
`,
    );
    const res = await uploadDraft(manager, 'pets', secured);
    expect(res.status, await res.clone().text()).toBe(201);
    const { scopes } = (await json<{ data: ApiDraft }>(res)).data;
    expect(scopes).toEqual([{ scope: 'owners:read', endpoints: ['GET /owners'], added: true }]);
  });

  it("previews the draft's documentation with the published reference's answers, before publishing", async () => {
    const base = `/admin-api/catalog/apis/pets/drafts/${draftV2.id}/documentation`;
    const res = await manager.get(`${base}/index`);
    expect(res.status, await res.clone().text()).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('x-robots-tag')).toContain('noindex');
    const index = await json<OperationIndex>(res);
    const keys = (ix: OperationIndex) =>
      ix.tags.flatMap((tag) => tag.operations.map((op) => `${op.method} ${op.path}`));
    expect(index).toMatchObject({ alias: 'pets', version: '2.0', operationCount: 3 });
    expect(keys(index).sort()).toEqual(['get /owners', 'get /pets', 'get /pets/{id}']);
    // The published reference has not got the new operation, and its version is still 1.0.
    const live = await json<OperationIndex>(await fetch(`${t.baseUrl}/api/apidocs/pets/index`));
    expect(live.version).toBe('1.0');
    expect(keys(live)).not.toContain('get /owners');

    const owners = index.tags.flatMap((tag) => tag.operations).find((op) => op.path === '/owners')!;
    const detail = await manager.get(`${base}/operations/${encodeURIComponent(owners.key)}`);
    expect(detail.status, await detail.clone().text()).toBe(200);
    expect(detail.headers.get('cache-control')).toBe('no-store');
    previewOwners = await detail.clone().text();
    ownersKey = owners.key;
    const op = await json<OperationDetail>(detail);
    expect(op).toMatchObject({ key: owners.key, method: 'get', path: '/owners', summary: 'List owners' });
    expect(op.server).toBe(`${t.app.config.publicUrl}/sandbox/pets`);
    expect(op.responses[0]).toMatchObject({
      status: '200',
      content: { 'application/json': { example: [{ name: 'Alice' }] } },
    });
    expect(op.samples.map((sample) => sample.id)).toContain('curl');
    // Developers never see it: the published reference has no such operation.
    expect(
      (await fetch(`${t.baseUrl}/api/apidocs/pets/operations/${encodeURIComponent(owners.key)}`)).status,
    ).toBe(404);

    // Administrators too; an unknown operation, draft or API is a 404.
    expect((await admin.get(`${base}/index`)).status).toBe(200);
    expect((await manager.get(`${base}/operations/nothing-here`)).status).toBe(404);
    expect(
      (await manager.get(`/admin-api/catalog/apis/pets/drafts/${randomUUID()}/documentation/index`)).status,
    ).toBe(404);
    expect(
      (await manager.get(`/admin-api/catalog/apis/nope/drafts/${draftV2.id}/documentation/index`)).status,
    ).toBe(404);

    // After a restart (nothing kept), the draft's source is processed again: the same answers.
    clearDraftDocuments(t.app.db);
    const again = await manager.get(`${base}/operations/${encodeURIComponent(owners.key)}`);
    expect(again.status).toBe(200);
    expect(await again.text()).toBe(previewOwners);
    expect(await json<OperationIndex>(await manager.get(`${base}/index`))).toEqual(index);
  });

  it('refuses every other role, changing nothing', async () => {
    const before = await counters();
    const anonymous = new TestClient(t.baseUrl);
    expect((await uploadDraft(anonymous, 'pets', V2)).status).toBe(401);
    for (const part of ['index', 'operations/owners']) {
      const preview = await anonymous.get(
        `/admin-api/catalog/apis/pets/drafts/${draftV2.id}/documentation/${part}`,
      );
      expect(preview.status).toBe(401);
      expect(await preview.text()).not.toContain('/owners');
    }
    for (const client of others) {
      expect((await uploadDraft(client, 'pets', V2)).status).toBe(403);
      expect((await client.get('/admin-api/catalog/apis')).status).toBe(403);
      expect((await client.get(`/admin-api/catalog/apis/pets/drafts/${draftV2.id}`)).status).toBe(403);
      for (const part of ['index', 'operations/owners']) {
        const preview = await client.get(
          `/admin-api/catalog/apis/pets/drafts/${draftV2.id}/documentation/${part}`,
        );
        expect(preview.status).toBe(403);
        expect(await preview.text()).not.toContain('/owners');
      }
      expect((await client.get(`/admin-api/catalog/apis/pets/drafts/${draftV2.id}/audience`)).status).toBe(
        403,
      );
      const publish = await client.send(
        'POST',
        `/admin-api/catalog/apis/pets/drafts/${draftV2.id}/publish`,
        { changelog: 'x' },
        'application/json',
      );
      expect(publish.status).toBe(403);
      const notice = await client.send(
        'POST',
        `/admin-api/catalog/apis/pets/drafts/${draftV2.id}/notices`,
        { text: 'x' },
        'application/json',
      );
      expect(notice.status).toBe(403);
    }
    expect(await counters()).toEqual(before);
    expect((await fetch(`${t.baseUrl}/sandbox/pets/owners`)).status).toBe(404);
  });

  it('publishes: the document replaced, the sandbox answers the new operation, a changelog entry and an audit entry', async () => {
    // The notice waits for the publication.
    const early = await manager.send(
      'POST',
      `/admin-api/catalog/apis/pets/drafts/${draftV2.id}/notices`,
      { text: 'Soon' },
      'application/json',
    );
    expect(early.status).toBe(409);

    const empty = await manager.send(
      'POST',
      `/admin-api/catalog/apis/pets/drafts/${draftV2.id}/publish`,
      { changelog: '  ' },
      'application/json',
    );
    expect(empty.status).toBe(422);

    // What the catalog says of the documentation besides its document stays.
    await catalogDb(t.app.db)
      .updateTable('api_documentations')
      .set({ plan: '5 per minute', deprecated: true, tour: JSON.stringify({ steps: [] }) })
      .where('alias', '=', 'pets')
      .execute();
    const text = `${draftV2.changelogText}\n\nThe owners have an API of their own now.`;
    // Two people publish the same draft at once: one publication, the other told it happened.
    const [res, raced] = await Promise.all(
      [admin, manager].map((client) =>
        client.send(
          'POST',
          `/admin-api/catalog/apis/pets/drafts/${draftV2.id}/publish`,
          { changelog: text },
          'application/json',
        ),
      ),
    );
    expect([res!.status, raced!.status].sort(), await res!.clone().text()).toEqual([200, 409]);
    const first = res!.status === 200 ? res! : raced!;
    expect((await json<{ data: ApiDraft }>(first)).data).toMatchObject({ status: 'published' });

    const doc = await catalogDb(t.app.db)
      .selectFrom('api_documentations')
      .select(['plan', 'deprecated', 'tour', 'version'])
      .where('alias', '=', 'pets')
      .executeTakeFirstOrThrow();
    expect(doc).toMatchObject({
      plan: '5 per minute',
      deprecated: true,
      tour: { steps: [] },
      version: '2.0',
    });
    // The preview showed exactly what developers now read.
    const publishedOwners = await fetch(
      `${t.baseUrl}/api/apidocs/pets/operations/${encodeURIComponent(ownersKey)}`,
    );
    expect(publishedOwners.status).toBe(200);
    expect(await publishedOwners.text()).toBe(previewOwners);
    const owners = await fetch(`${t.baseUrl}/sandbox/pets/owners`);
    expect(owners.status).toBe(200);
    expect(await owners.json()).toEqual([{ name: 'Alice' }]);
    expect((await fetch(`${t.baseUrl}/sandbox/pets/pets/p1`, { method: 'DELETE' })).status).not.toBe(204);

    const entries = await catalogDb(t.app.db)
      .selectFrom('change_log_entries')
      .select(['version', 'notes'])
      .orderBy('id', 'desc')
      .execute();
    expect(entries.filter((e) => e.version === '2.0')).toHaveLength(1);
    expect(entries[0]!.version).toBe('2.0');
    expect(entries[0]!.notes).toContain('<code>GET /owners</code>');
    expect(entries[0]!.notes).toContain('The owners have an API of their own now.');
    const changelog = await json<{ data: { attributes: { field_version?: string } }[] }>(
      await developer.get('/jsonapi/node/change_log'),
    );
    expect(JSON.stringify(changelog.data)).toContain('2.0');

    const audit = await t.app.db
      .selectFrom('audit_log')
      .select(['actor_email', 'target_id', 'before', 'after'])
      .where('action', '=', 'api.published')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(audit.actor_email).toBe(
      res!.status === 200 ? 'apis.admin@example.com' : 'apis.manager@example.com',
    );
    expect(audit.target_id).toBe('pets');
    const parse = (v: unknown) => (typeof v === 'string' ? JSON.parse(v) : v) as Record<string, unknown>;
    expect(parse(audit.before)).toMatchObject({ version: '1.0' });
    expect(parse(audit.after)).toMatchObject({
      version: '2.0',
      summary: { added: ['GET /owners'], removed: ['DELETE /pets/{petId}'], breakingCount: 5 },
    });

    const again = await manager.send(
      'POST',
      `/admin-api/catalog/apis/pets/drafts/${draftV2.id}/publish`,
      { changelog: text },
      'application/json',
    );
    expect(again.status).toBe(409);
  });

  it('discards a draft never published: its row, its preview and an audit entry; a published one stays', async () => {
    const res = await uploadDraft(manager, 'pets', V2.replace("version: '2.0'", "version: '2.1'"));
    expect(res.status, await res.clone().text()).toBe(201);
    const draft = (await json<{ data: ApiDraft }>(res)).data;
    const path = `/admin-api/catalog/apis/pets/drafts/${draft.id}`;
    expect((await manager.get(`${path}/documentation/index`)).status).toBe(200);

    // Nobody else may discard it, and a refused call changes nothing.
    const before = await counters();
    expect((await discard(new TestClient(t.baseUrl), path)).status).toBe(401);
    for (const client of others) expect((await discard(client, path)).status).toBe(403);
    expect(await counters()).toEqual(before);

    // A published draft stays, with a message that says why.
    const published = await discard(manager, `/admin-api/catalog/apis/pets/drafts/${draftV2.id}`);
    expect(published.status).toBe(409);
    expect((await json<{ errors: { title: string }[] }>(published)).errors[0]!.title).toBe(
      M.discardPublished,
    );
    expect(await counters()).toEqual(before);

    const discarded = await discard(manager, path);
    expect(discarded.status, await discarded.clone().text()).toBe(204);
    expect(await counters()).toEqual({ ...before, drafts: before.drafts - 1, audit: before.audit + 1 });
    expect((await manager.get(path)).status).toBe(404);
    expect((await manager.get(`${path}/documentation/index`)).status).toBe(404);
    expect((await discard(manager, path)).status).toBe(404);
    const audit = await t.app.db
      .selectFrom('audit_log')
      .select(['actor_email', 'target_id', 'before', 'after'])
      .where('action', '=', 'api.draft_discarded')
      .executeTakeFirstOrThrow();
    expect(audit).toMatchObject({ actor_email: 'apis.manager@example.com', target_id: 'pets', after: null });
    const parse = (v: unknown) => (typeof v === 'string' ? JSON.parse(v) : v) as Record<string, unknown>;
    expect(parse(audit.before)).toMatchObject({ draft: draft.id, fromVersion: '2.0', toVersion: '2.1' });
    // The published API is as it was.
    const list = (await json<{ data: ApiListItem[] }>(await manager.get('/admin-api/catalog/apis'))).data;
    const pets = list.find((a) => a.alias === 'pets')!;
    expect(pets.version).toBe('2.0');
    expect(pets.drafts.map((d) => d.id)).not.toContain(draft.id);

    // Published and discarded at once: one of them happens, the other is told.
    const raced = (await json<{ data: ApiDraft }>(await uploadDraft(manager, 'pets', V2))).data;
    const racedPath = `/admin-api/catalog/apis/pets/drafts/${raced.id}`;
    const [publish, dropped] = await Promise.all([
      admin.send('POST', `${racedPath}/publish`, { changelog: raced.changelogText }, 'application/json'),
      discard(manager, racedPath),
    ]);
    const outcome = [publish!.status, dropped!.status];
    expect(
      [
        [200, 409],
        [404, 204],
      ],
      JSON.stringify(outcome),
    ).toContainEqual(outcome);
    const row = await catalogDb(t.app.db)
      .selectFrom('api_drafts')
      .select('published_at')
      .where('uuid', '=', raced.id)
      .executeTakeFirst();
    expect(row ? 'published' : 'discarded').toBe(publish!.status === 200 ? 'published' : 'discarded');
  });

  it('counts the audience from the gateway records and sends notices by e-mail and on the application page', async () => {
    const org = await createOrg(developer, 'Pet Shop');
    const otherOrg = await createOrg(admin, 'Quiet Shop');
    const orgId = async (uuid: string) =>
      (
        await t.app.db
          .selectFrom('organizations')
          .select('id')
          .where('uuid', '=', uuid)
          .executeTakeFirstOrThrow()
      ).id;
    const insertApp = async (organizationId: number, title: string) =>
      appDb(t.app.db)
        .insertInto('applications')
        .values({ organization_id: organizationId, title, grant_types: ['client_credentials'] })
        .returning(['id', 'uuid'])
        .executeTakeFirstOrThrow();
    const caller = await insertApp(await orgId(org.id), 'Pet Shop App');
    const quiet = await insertApp(await orgId(otherOrg.id), 'Quiet App');
    const call = (uuid: string, endpoint: string, daysAgo: number) => ({
      occurred_at: new Date(Date.now() - daysAgo * 86_400_000),
      application_uuid: uuid,
      client_id: `client-${uuid}`,
      environment: 'DEVELOPMENT',
      api_alias: 'pets',
      // As the gateway records it: the API's alias before the path template.
      endpoint: endpoint.replace(' ', ' /pets'),
      method: endpoint.split(' ')[0]!,
      status: 200,
      duration_ms: 3,
    });
    await t.app.db
      .insertInto('api_calls')
      .values([
        call(caller.uuid, 'DELETE /pets/{petId}', 2),
        call(caller.uuid, 'DELETE /pets/{petId}', 3),
        // Only an operation that did not break, or a call too long ago: not in the audience.
        call(quiet.uuid, 'GET /owners', 1),
        call(quiet.uuid, 'DELETE /pets/{petId}', 40),
      ])
      .execute();

    const audience = await manager.get(`/admin-api/catalog/apis/pets/drafts/${draftV2.id}/audience`);
    expect(audience.status).toBe(200);
    expect((await json<{ data: NoticeAudience }>(audience)).data).toEqual({
      applications: 1,
      organizations: 1,
      endpoints: ['DELETE /pets/{petId}', 'GET /pets', 'GET /pets/{id}'],
    });
    // The raw calls are read through their (api_alias, occurred_at) index, the only one left for
    // them (migrations 0317 and 0318 dropped the dashboard's and the client's, which nothing read).
    const plan = await t.app.db.transaction().execute(async (trx) => {
      await sql`set local enable_seqscan = off`.execute(trx);
      return audienceCalls(trx, 'pets', ['DELETE /pets/pets/{petId}']).explain();
    });
    expect(plan.map((r) => Object.values(r).join(' ')).join('\n')).toContain('api_calls_alias_time');
    const { rows: indexes } = await sql<{ indexname: string }>`
      select indexname from pg_indexes where tablename = 'api_calls' order by indexname`.execute(t.app.db);
    expect(indexes.map((i) => i.indexname)).toEqual(['api_calls_alias_time', 'api_calls_pkey']);

    const blank = await manager.send(
      'POST',
      `/admin-api/catalog/apis/pets/drafts/${draftV2.id}/notices`,
      { text: '' },
      'application/json',
    );
    expect(blank.status).toBe(422);

    const text = 'Deleting pets is gone in version 2.0: archive them instead.';
    const sent = await manager.send(
      'POST',
      `/admin-api/catalog/apis/pets/drafts/${draftV2.id}/notices`,
      { text },
      'application/json',
    );
    expect(sent.status, await sent.clone().text()).toBe(201);
    expect((await json<{ data: NoticeSent }>(sent)).data).toMatchObject({
      applications: 1,
      organizations: 1,
      recipients: 1,
    });

    const mails = await t.app.db
      .selectFrom('outbox')
      .select(['to_address', 'subject', 'text_body'])
      .where('subject', 'like', 'Change to Pets%')
      .execute();
    expect(mails).toHaveLength(1);
    expect(mails[0]!.to_address).toBe('apis.owner@example.com');
    expect(mails[0]!.subject).toBe(format(M.noticeSubject, { title: 'Pets', application: 'Pet Shop App' }));
    expect(mails[0]!.text_body).toContain(text);
    expect(mails[0]!.text_body).toContain(`/application/${caller.uuid}`);

    const notices = await developer.get(`/api/applications/${caller.uuid}/notices`);
    expect(notices.status).toBe(200);
    expect((await json<{ data: ApplicationNotice[] }>(notices)).data).toEqual([
      expect.objectContaining({
        apiTitle: 'Pets',
        apiAlias: 'pets',
        text,
        endpoints: ['DELETE /pets/{petId}'],
      }),
    ]);
    // Not a member of the other organization: its application's notices are hidden.
    expect((await developer.get(`/api/applications/${quiet.uuid}/notices`)).status).toBe(404);
    expect((await new TestClient(t.baseUrl).get(`/api/applications/${caller.uuid}/notices`)).status).toBe(
      401,
    );

    const audit = await t.app.db
      .selectFrom('audit_log')
      .select(['actor_email', 'after'])
      .where('action', '=', 'api.notice_sent')
      .executeTakeFirstOrThrow();
    expect(audit.actor_email).toBe('apis.manager@example.com');
  });
});

describe("a big draft's documentation preview", () => {
  it('answers the index and an operation without holding the event loop, also once forgotten', async () => {
    // 1,500 paths (3,000 operations), over a megabyte: the preview's answers are the reference's,
    // worked out in the worker pool and parsed in turns, never in one long turn of the main thread.
    const big = JSON.stringify(largeDocument(1500));
    expect(big.length).toBeGreaterThan(1_000_000);
    const res = await uploadDraft(manager, 'big-draft', big, { product: 'big-draft', filename: 'big.json' });
    expect(res.status, await res.clone().text()).toBe(201);
    const draft = (await json<{ data: ApiDraft }>(res)).data;
    const base = `/admin-api/catalog/apis/big-draft/drafts/${draft.id}/documentation`;
    for (const round of ['kept from the upload', 'processed again']) {
      if (round === 'processed again') clearDraftDocuments(t.app.db);
      const blocks = watchEventLoop();
      const started = performance.now();
      const index = await json<OperationIndex>(await manager.get(`${base}/index`));
      const detail = await manager.get(`${base}/operations/getThing1499`);
      const ms = performance.now() - started;
      const { longestWorkBesideGc, longestGc } = blocks.stop();
      expect(index.operationCount).toBe(3000);
      expect(detail.status).toBe(200);
      expect((await json<OperationDetail>(detail)).key).toBe('getThing1499');
      const figures = `${round}: index and operation ${Math.round(ms)} ms; longest work between two turns ${longestWorkBesideGc.toFixed(1)} ms beside the collector (longest pause ${longestGc.toFixed(1)} ms)`;
      expect(longestWorkBesideGc, figures).toBeLessThan(50);
    }
    // Never published: the catalog has no such documentation.
    expect((await fetch(`${t.baseUrl}/api/apidocs/big-draft/index`)).status).toBe(404);
  }, 120_000);
});
