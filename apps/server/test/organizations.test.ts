import { en } from '@portico/contracts/messages';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLE_PERMISSIONS } from '../src/modules/organizations/authz.ts';
import { RESENDS_PER_HOUR } from '../src/modules/organizations/membership-routes.ts';
import { TestClient, signIn } from './http-client.ts';
import {
  PASSWORD,
  accept,
  body,
  createOrg,
  invite,
  myMembership,
  orgDocument,
  signedInUser,
  upload,
  verifyThroughOutbox,
  PNG_1X1,
  type JsonApiErrorBody,
  type MemberResource,
  type OrgResource,
} from './org-fixtures.ts';
import { startTestApp, type TestApp } from './test-app.ts';

const M = en.organizations;

/** A 400 from the shared JSON:API layer: the parameter at fault in source.parameter. */
interface QueryErrorBody {
  errors: { status: string; code: string; title: string; source?: { parameter?: string } }[];
}
const ACTORS = [
  'anonymous',
  'stranger',
  'creator',
  'owner',
  'developer',
  'financial',
  'legal',
  'pending',
] as const;
type Actor = (typeof ACTORS)[number];

describe('organizations: authorization matrix', () => {
  let t: TestApp;
  const c = {} as Record<Actor, TestClient>;
  let org: OrgResource;
  let docUrl: string;

  beforeAll(async () => {
    t = await startTestApp({ LOGIN_RATE_LIMIT: '1000' });
    c.anonymous = new TestClient(t.baseUrl);
    c.stranger = await signedInUser(t, 'sam.stranger@example.com');
    c.creator = await signedInUser(t, 'carla.creator@example.com');
    c.owner = await signedInUser(t, 'otto.owner@example.com');
    c.developer = await signedInUser(t, 'dev.eloper@example.com');
    c.financial = await signedInUser(t, 'fin.ance@example.com');
    c.legal = await signedInUser(t, 'lee.gal@example.com');
    c.pending = await signedInUser(t, 'pat.pending@example.com');
    org = await createOrg(c.creator, 'Acme Partners');
    const roles: [Actor, string][] = [
      ['owner', 'organization-admin'],
      ['developer', 'organization-developer'],
      ['financial', 'organization-financial'],
      ['legal', 'organization-le'],
      ['pending', 'organization-developer'],
    ];
    for (const [actor, role] of roles) {
      const email = `${actor === 'owner' ? 'otto.owner' : actor === 'developer' ? 'dev.eloper' : actor === 'financial' ? 'fin.ance' : actor === 'legal' ? 'lee.gal' : 'pat.pending'}@example.com`;
      expect((await invite(c.creator, org.id, email, [role])).status).toBe(201);
      if (actor !== 'pending') await accept(c[actor], org.id);
    }
    const doc = await upload(c.creator, org.id, 'field_documents', 'readme.txt', 'Hello, partners.');
    expect(doc.status).toBe(201);
    docUrl = new URL((await body<{ data: { attributes: { url: string } } }>(doc)).data.attributes.url)
      .pathname;
  });
  afterAll(async () => {
    await t?.close();
  });

  /** A fresh pending invitation to act upon (remove, edit, resend). */
  let n = 0;
  async function freshInvitation(): Promise<MemberResource> {
    const res = await invite(c.creator, org.id, `target${++n}@example.com`, ['organization-developer']);
    expect(res.status).toBe(201);
    return (await body<{ data: MemberResource }>(res)).data;
  }

  const calls: Record<
    string,
    { expect: Record<Actor, number>; run: (client: TestClient) => Promise<Response> }
  > = {
    'GET /jsonapi/group/organization': {
      expect: {
        anonymous: 401,
        stranger: 200,
        creator: 200,
        owner: 200,
        developer: 200,
        financial: 200,
        legal: 200,
        pending: 200,
      },
      run: (cl) => cl.get('/jsonapi/group/organization'),
    },
    'GET /jsonapi/group/organization/{uuid}': {
      expect: {
        anonymous: 401,
        stranger: 404,
        creator: 200,
        owner: 200,
        developer: 200,
        financial: 200,
        legal: 200,
        pending: 200,
      },
      run: (cl) => cl.get(`/jsonapi/group/organization/${org.id}?include=field_image,field_documents`),
    },
    'PATCH /jsonapi/group/organization/{uuid}': {
      expect: {
        anonymous: 401,
        stranger: 404,
        creator: 200,
        owner: 200,
        developer: 403,
        financial: 403,
        legal: 403,
        pending: 403,
      },
      run: (cl) =>
        cl.send('PATCH', `/jsonapi/group/organization/${org.id}`, {
          data: { ...orgDocument('Acme Partners').data, id: org.id },
        }),
    },
    'POST /jsonapi/group/organization/field_documents': {
      expect: {
        anonymous: 401,
        stranger: 404,
        creator: 201,
        owner: 201,
        developer: 201,
        financial: 403,
        legal: 201,
        pending: 403,
      },
      run: (cl) => upload(cl, org.id, 'field_documents', 'notes.txt', 'Technical notes'),
    },
    'PATCH /jsonapi/group/organization/{uuid} field_documents only': {
      expect: {
        anonymous: 401,
        stranger: 404,
        creator: 200,
        owner: 200,
        developer: 200,
        financial: 403,
        legal: 200,
        pending: 403,
      },
      run: async (cl) => {
        const current = await body<{ data: OrgResource }>(
          await c.creator.get(`/jsonapi/group/organization/${org.id}`),
        );
        return cl.send('PATCH', `/jsonapi/group/organization/${org.id}`, {
          data: {
            type: 'group--organization',
            id: org.id,
            relationships: { field_documents: { data: current.data.relationships.field_documents.data } },
          },
        });
      },
    },
    'POST /jsonapi/group/organization/field_image': {
      expect: {
        anonymous: 401,
        stranger: 404,
        creator: 201,
        owner: 201,
        developer: 403,
        financial: 403,
        legal: 403,
        pending: 403,
      },
      run: (cl) =>
        upload(cl, org.id, 'field_image', 'logo.png', Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex')),
    },
    'GET /files/{uuid}/{name} (document)': {
      expect: {
        anonymous: 401,
        stranger: 404,
        creator: 200,
        owner: 200,
        developer: 200,
        financial: 200,
        legal: 200,
        pending: 403,
      },
      run: (cl) => cl.get(docUrl),
    },
    'GET /jsonapi/group_content/organization-group_membership': {
      expect: {
        anonymous: 401,
        stranger: 404,
        creator: 200,
        owner: 200,
        developer: 200,
        financial: 200,
        legal: 200,
        pending: 403,
      },
      run: (cl) => cl.get(`/jsonapi/group_content/organization-group_membership?filter[gid]=${org.id}`),
    },
    'GET /jsonapi/group_role/group_role': {
      expect: {
        anonymous: 401,
        stranger: 200,
        creator: 200,
        owner: 200,
        developer: 200,
        financial: 200,
        legal: 200,
        pending: 200,
      },
      run: (cl) => cl.get('/jsonapi/group_role/group_role'),
    },
    'POST /phpsdk/organization/invite': {
      expect: {
        anonymous: 401,
        stranger: 404,
        creator: 201,
        owner: 201,
        developer: 403,
        financial: 403,
        legal: 403,
        pending: 403,
      },
      run: (cl) => invite(cl, org.id, `invitee${++n}@example.com`, ['organization-le']),
    },
    'POST /phpsdk/organization/invite-resend': {
      expect: {
        anonymous: 401,
        stranger: 404,
        creator: 200,
        owner: 200,
        developer: 403,
        financial: 403,
        legal: 403,
        pending: 403,
      },
      run: async (cl) =>
        cl.send(
          'POST',
          '/phpsdk/organization/invite-resend?_format=json',
          { gid: org.id, membershipId: (await freshInvitation()).id },
          'application/json',
        ),
    },
    'PATCH membership group_roles': {
      expect: {
        anonymous: 401,
        stranger: 404,
        creator: 200,
        owner: 200,
        developer: 403,
        financial: 403,
        legal: 403,
        pending: 403,
      },
      run: async (cl) => {
        const m = await freshInvitation();
        return cl.send('PATCH', `/jsonapi/group_content/organization-group_membership/${m.id}`, {
          data: {
            type: 'group_content--organization-group_membership',
            id: m.id,
            relationships: {
              group_roles: { data: [{ type: 'group_role--group_role', id: 'organization-le' }] },
            },
          },
        });
      },
    },
    "PATCH membership field_status (someone else's invitation)": {
      expect: {
        anonymous: 401,
        stranger: 404,
        creator: 403,
        owner: 403,
        developer: 403,
        financial: 403,
        legal: 403,
        pending: 403,
      },
      run: async (cl) => {
        const m = await freshInvitation();
        return cl.send('PATCH', `/jsonapi/group_content/organization-group_membership/${m.id}`, {
          data: {
            type: 'group_content--organization-group_membership',
            attributes: { field_status: 'active' },
          },
        });
      },
    },
    'DELETE membership (another member)': {
      expect: {
        anonymous: 401,
        stranger: 404,
        creator: 204,
        owner: 204,
        developer: 403,
        financial: 403,
        legal: 403,
        pending: 403,
      },
      run: async (cl) =>
        cl.send(
          'DELETE',
          `/jsonapi/group_content/organization-group_membership/${(await freshInvitation()).id}`,
        ),
    },
    'DELETE /jsonapi/group/organization/{uuid}/delete_custom (refusals)': {
      // The allowed callers are checked below on organizations of their own.
      expect: {
        anonymous: 401,
        stranger: 404,
        creator: 0,
        owner: 0,
        developer: 403,
        financial: 403,
        legal: 403,
        pending: 403,
      },
      run: (cl) => cl.send('DELETE', `/jsonapi/group/organization/${org.id}/delete_custom`),
    },
  };

  for (const [name, call] of Object.entries(calls)) {
    it(`${name}: ${ACTORS.map((a) => `${a} ${call.expect[a] || '-'}`).join(', ')}`, async () => {
      const got: Partial<Record<Actor, number>> = {};
      const want: Partial<Record<Actor, number>> = {};
      for (const actor of ACTORS) {
        if (!call.expect[actor]) continue;
        want[actor] = call.expect[actor];
        got[actor] = (await call.run(c[actor])).status;
      }
      expect(got).toEqual(want);
    });
  }

  it('an unknown organization is a 404 for everyone signed in, even owners of others', async () => {
    const res = await c.creator.get('/jsonapi/group/organization/00000000-0000-4000-8000-000000000000');
    expect(res.status).toBe(404);
  });

  it('owners (creator or not) may delete an organization; the creator cannot be removed', async () => {
    const second = await createOrg(c.creator, 'Second Org');
    expect(
      (await invite(c.creator, second.id, 'otto.owner@example.com', ['organization-admin'])).status,
    ).toBe(201);
    await accept(c.owner, second.id);
    const creatorMembership = await myMembership(c.creator, second.id);
    const removeCreator = await c.owner.send(
      'DELETE',
      `/jsonapi/group_content/organization-group_membership/${creatorMembership!.id}`,
    );
    expect(removeCreator.status).toBe(403);
    expect((await body<JsonApiErrorBody>(removeCreator)).errors[0]?.title).toBe(M.creatorCannotBeRemoved);
    const leave = await c.creator.send(
      'DELETE',
      `/jsonapi/group_content/organization-group_membership/${creatorMembership!.id}`,
    );
    expect(leave.status).toBe(403);
    expect(
      (await c.owner.send('DELETE', `/jsonapi/group/organization/${second.id}/delete_custom`)).status,
    ).toBe(204);
    expect((await c.creator.get(`/jsonapi/group/organization/${second.id}`)).status).toBe(404);
    const third = await createOrg(c.creator, 'Third Org');
    expect(
      (await c.creator.send('DELETE', `/jsonapi/group/organization/${third.id}/delete_custom`)).status,
    ).toBe(204);
  });

  it('exposes the caller permissions in meta, equal to the role table', async () => {
    const got = await body<{ data: OrgResource }>(await c.legal.get(`/jsonapi/group/organization/${org.id}`));
    expect(got.data.meta.permissions).toEqual([...ROLE_PERMISSIONS['organization-le']].sort());
    expect(got.data.meta.membership.roles).toEqual(['organization-le']);
    const pending = await body<{ data: OrgResource }>(
      await c.pending.get(`/jsonapi/group/organization/${org.id}`),
    );
    expect(pending.data.meta.membership.status).toBe('pending_invitation');
    expect(pending.data.meta.permissions).toEqual([]);
    // The invitee sees the name, not the documents.
    expect(pending.data.relationships.field_documents.data).toEqual([]);
    const creator = await body<{ data: OrgResource }>(
      await c.creator.get(`/jsonapi/group/organization/${org.id}`),
    );
    expect(creator.data.meta.isCreator).toBe(true);
    expect(creator.data.relationships.field_documents.data.length).toBeGreaterThan(0);
  });

  it('the roles in the database carry the permissions authz decides with', async () => {
    const res = await body<{
      data: { attributes: { drupal_internal__id: string; label: string; permissions: string[] } }[];
    }>(
      await c.creator.get(
        '/jsonapi/group_role/group_role?filter[id][condition][path]=drupal_internal__id&filter[id][condition][operator]=IN' +
          '&filter[id][condition][value][]=organization-admin&filter[id][condition][value][]=organization-developer' +
          '&filter[id][condition][value][]=organization-financial&filter[id][condition][value][]=organization-le',
      ),
    );
    expect(res.data.map((r) => [r.attributes.drupal_internal__id, r.attributes.label])).toEqual([
      ['organization-admin', 'Organization Owner'],
      ['organization-developer', 'Developer'],
      ['organization-financial', 'Financial'],
      ['organization-le', 'Legal'],
    ]);
    for (const r of res.data) {
      const id = r.attributes.drupal_internal__id as keyof typeof ROLE_PERMISSIONS;
      expect([...r.attributes.permissions].sort()).toEqual([...ROLE_PERMISSIONS[id]].sort());
    }
    const one = await body<{ data: unknown[] }>(
      await c.creator.get('/jsonapi/group_role/group_role?filter[drupal_internal__id]=organization-le'),
    );
    expect(one.data).toHaveLength(1);
    // Filters come from the role description (drupal_internal__id, id, label, weight).
    const legal = await body<{ data: { attributes: { drupal_internal__id: string } }[] }>(
      await c.creator.get('/jsonapi/group_role/group_role?filter[label]=Legal'),
    );
    expect(legal.data.map((r) => r.attributes.drupal_internal__id)).toEqual(['organization-le']);
    const reversed = await body<{ data: { attributes: { drupal_internal__id: string } }[] }>(
      await c.creator.get('/jsonapi/group_role/group_role?sort=-weight'),
    );
    expect(reversed.data.map((r) => r.attributes.drupal_internal__id)[0]).toBe('organization-le');
    const unknown = await c.creator.get('/jsonapi/group_role/group_role?filter[permissions]=x');
    expect(unknown.status).toBe(400);
    expect((await body<QueryErrorBody>(unknown)).errors[0]).toMatchObject({
      code: 'invalid_query',
      source: { parameter: 'filter[permissions]' },
    });
  });
});

describe('organizations: forms, members and invitations', () => {
  let t: TestApp;
  let owner: TestClient;
  let org: OrgResource;

  beforeAll(async () => {
    t = await startTestApp({ LOGIN_RATE_LIMIT: '1000' });
    owner = await signedInUser(t, 'olga.owner@example.com');
    org = await createOrg(owner, 'Forms Org');
  });
  afterAll(async () => {
    await t?.close();
  });

  it('creates an organization: 201, the creator is its active owner, listed under MY ORGANIZATIONS', async () => {
    const created = await owner.send(
      'POST',
      '/jsonapi/group/organization',
      orgDocument('  Zeta Org ', 'Line one\nLine <two>'),
    );
    expect(created.status).toBe(201);
    const doc = await body<{ data: OrgResource & { attributes: { field_body: { processed: string } } } }>(
      created,
    );
    expect(doc.data.attributes.label).toBe('Zeta Org');
    expect(doc.data.attributes.field_body).toMatchObject({
      value: 'Line one\nLine <two>',
      format: 'plain_text',
    });
    expect(doc.data.attributes.field_body.processed).toBe('<p>Line one<br>\nLine &lt;two&gt;</p>');
    expect(doc.data.meta.membership).toMatchObject({ status: 'active', roles: ['organization-admin'] });
    const members = await body<{ data: MemberResource[] }>(
      await owner.get(`/jsonapi/group_content/organization-group_membership?filter[gid]=${doc.data.id}`),
    );
    expect(members.data).toHaveLength(1);
    expect(members.data[0]?.attributes).toMatchObject({
      email: 'olga.owner@example.com',
      userName: 'olga owner',
      status: 'active',
      roles: ['organization-admin'],
      isCreator: true,
      resentInvitation: false,
    });
  });

  it('validates the organization form with the catalogue messages', async () => {
    const cases: [unknown, string, string][] = [
      [orgDocument(''), M.titleRequired, '/data/attributes/label'],
      [orgDocument('   '), M.titleRequired, '/data/attributes/label'],
      [{ data: { type: 'group--organization', attributes: {} } }, M.titleRequired, '/data/attributes/label'],
      [orgDocument('x'.repeat(256)), M.titleTooLong, '/data/attributes/label'],
      [orgDocument('Fine', 'y'.repeat(5001)), M.descriptionTooLong, '/data/attributes/field_body'],
    ];
    for (const [doc, title, pointer] of cases) {
      const res = await owner.send('POST', '/jsonapi/group/organization', doc);
      expect(res.status).toBe(422);
      const err = await body<JsonApiErrorBody>(res);
      expect(err.errors[0]).toMatchObject({ title, source: { pointer } });
    }
    const patch = await owner.send('PATCH', `/jsonapi/group/organization/${org.id}`, {
      data: { type: 'group--organization', id: org.id, attributes: { label: '' } },
    });
    expect(patch.status).toBe(422);
    expect((await body<JsonApiErrorBody>(patch)).errors[0]?.title).toBe(M.titleRequired);
    const wrongType = await owner.send('POST', '/jsonapi/group/organization', {
      data: { type: 'node--page' },
    });
    expect(wrongType.status).toBe(422);
  });

  it('lists, pages with links.next and sorts by label and created', async () => {
    for (const name of ['Bravo', 'alpha', 'Charlie']) await createOrg(owner, name);
    const first = await body<{
      data: OrgResource[];
      links: { next?: { href: string } };
      meta: { count: number };
    }>(
      await owner.get(
        '/jsonapi/group/organization?sort=label&page[limit]=2&include=field_image,field_documents',
      ),
    );
    expect(first.meta.count).toBeGreaterThanOrEqual(5);
    expect(first.data.map((o) => o.attributes.label)).toEqual(['alpha', 'Bravo']);
    expect(first.links.next?.href).toContain('page%5Boffset%5D=2');
    const next = await body<{ data: OrgResource[] }>(
      await owner.get(new URL(first.links.next!.href).pathname + new URL(first.links.next!.href).search),
    );
    expect(next.data.map((o) => o.attributes.label)).toEqual(['Charlie', 'Forms Org']);
    const newest = await body<{ data: OrgResource[] }>(
      await owner.get('/jsonapi/group/organization?sort=-created&page[limit]=1'),
    );
    expect(newest.data[0]?.attributes.label).toBe('Charlie');
    expect((await owner.get('/jsonapi/group/organization?sort=title')).status).toBe(400);
    expect((await owner.get('/jsonapi/group/organization?include=uid')).status).toBe(400);
    expect((await owner.get('/jsonapi/group/organization?filter[x]=1')).status).toBe(400);
  });

  it('validates invitations: e-mail and roles as 422 with source.pointer, existing members as 409', async () => {
    const badEmail = await invite(owner, org.id, 'not-an-email', ['organization-developer']);
    expect(badEmail.status).toBe(422);
    expect((await body<JsonApiErrorBody>(badEmail)).errors).toEqual([
      expect.objectContaining({ title: M.invalidEmail, source: { pointer: '/email' } }),
    ]);
    const noRoles = await invite(owner, org.id, 'someone@example.com', []);
    expect(noRoles.status).toBe(422);
    expect((await body<JsonApiErrorBody>(noRoles)).errors).toEqual([
      expect.objectContaining({ title: M.rolesRequired, source: { pointer: '/group_roles' } }),
    ]);
    const both = await invite(owner, org.id, '', []);
    expect((await body<JsonApiErrorBody>(both)).errors.map((e) => e.title)).toEqual([
      M.invalidEmail,
      M.rolesRequired,
    ]);
    const unknownRole = await invite(owner, org.id, 'someone@example.com', ['organization-king']);
    expect(unknownRole.status).toBe(422);
    const self = await invite(owner, org.id, 'OLGA.owner@example.com', ['organization-developer']);
    expect(self.status).toBe(409);
    expect((await body<JsonApiErrorBody>(self)).errors[0]?.title).toBe(M.alreadyMember);
    expect((await invite(owner, org.id, 'twice@example.com', ['organization-developer'])).status).toBe(201);
    const twice = await invite(owner, org.id, 'Twice@Example.com', ['organization-developer']);
    expect(twice.status).toBe(409);
    expect((await body<JsonApiErrorBody>(twice)).errors[0]?.title).toBe(M.alreadyInvited);
  });

  it('concurrent invitations of one address create one membership', async () => {
    const emails = [
      'race@example.com',
      'RACE@example.com',
      'race@EXAMPLE.com',
      'Race@example.com',
      'race@example.com',
    ];
    const results = await Promise.all(emails.map((e) => invite(owner, org.id, e, ['organization-le'])));
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([201, 409, 409, 409, 409]);
    const rows = await t.app.db
      .selectFrom('memberships')
      .select('id')
      .where((eb) => eb(eb.fn('lower', ['email']), '=', 'race@example.com'))
      .execute();
    expect(rows).toHaveLength(1);
  });

  it('edits roles: at least one, the creator keeps the owner role; resend marks resentInvitation', async () => {
    const invited = await body<{ data: MemberResource }>(
      await invite(owner, org.id, 'roles@example.com', ['organization-le']),
    );
    const patchRoles = (id: string, roles: string[]) =>
      owner.send('PATCH', `/jsonapi/group_content/organization-group_membership/${id}`, {
        data: {
          type: 'group_content--organization-group_membership',
          id,
          relationships: {
            group_roles: { data: roles.map((r) => ({ type: 'group_role--group_role', id: r })) },
          },
        },
      });
    const empty = await patchRoles(invited.data.id, []);
    expect(empty.status).toBe(422);
    expect((await body<JsonApiErrorBody>(empty)).errors[0]).toMatchObject({
      title: M.roleRequired,
      source: { pointer: '/data/relationships/group_roles' },
    });
    const changed = await patchRoles(invited.data.id, ['organization-financial', 'organization-developer']);
    expect(changed.status).toBe(200);
    expect((await body<{ data: MemberResource }>(changed)).data.attributes.roles).toEqual([
      'organization-developer',
      'organization-financial',
    ]);
    const mine = await myMembership(owner, org.id);
    const dropOwner = await patchRoles(mine!.id, ['organization-developer']);
    expect(dropOwner.status).toBe(422);
    expect((await body<JsonApiErrorBody>(dropOwner)).errors[0]?.title).toBe(M.creatorKeepsOwner);

    const resent = await owner.send(
      'POST',
      '/phpsdk/organization/invite-resend?_format=json',
      { gid: org.id, membershipId: invited.data.id },
      'application/json',
    );
    expect(resent.status).toBe(200);
    const resentDoc = await body<{ data: MemberResource; meta: { message: string } }>(resent);
    expect(resentDoc.meta.message).toBe(M.invitationSent);
    expect(resentDoc.data.attributes.resentInvitation).toBe(true);
    const mails = await t.app.db
      .selectFrom('outbox')
      .selectAll()
      .where('to_address', '=', 'roles@example.com')
      .execute();
    expect(mails).toHaveLength(2);
    const resendActive = await owner.send(
      'POST',
      '/phpsdk/organization/invite-resend?_format=json',
      { gid: org.id, membershipId: mine!.id },
      'application/json',
    );
    expect(resendActive.status).toBe(409);
  });

  it('limits how often one invitation is resent', async () => {
    const invited = await body<{ data: MemberResource }>(
      await invite(owner, org.id, 'resend.limit@example.com', ['organization-le']),
    );
    const resend = () =>
      owner.send(
        'POST',
        '/phpsdk/organization/invite-resend?_format=json',
        { gid: org.id, membershipId: invited.data.id },
        'application/json',
      );
    for (let i = 0; i < RESENDS_PER_HOUR; i++) expect((await resend()).status).toBe(200);
    const limited = await resend();
    expect(limited.status).toBe(429);
    expect((await body<JsonApiErrorBody>(limited)).errors[0]?.title).toBe(M.tooManyInvitations);
  });

  it('stores the invitation e-mail in the outbox without SMTP, readable by administrators only', async () => {
    await invite(owner, org.id, 'outboxed@example.com', ['organization-developer']);
    const mail = await t.app.db
      .selectFrom('outbox')
      .selectAll()
      .where('to_address', '=', 'outboxed@example.com')
      .executeTakeFirstOrThrow();
    expect(mail.status).toBe('stored');
    expect(mail.subject).toBe('You are invited to join Forms Org');
    expect(mail.text_body).toContain(`${t.config.publicUrl}/organization/${org.id}`);
    expect(mail.text_body).toContain('Developer');
    const admin = await signedInUser(t, 'ada.admin@example.com', { admin: true });
    const page = await body<{
      data: { attributes: { to: string; subject: string } }[];
      meta: { count: number };
    }>(await admin.get('/admin-api/outbox?page[limit]=1'));
    expect(page.meta.count).toBeGreaterThan(1);
    expect(page.data).toHaveLength(1);
    const one = await admin.get(`/admin-api/outbox/${(page.data[0] as unknown as { id: string }).id}`);
    expect(one.status).toBe(200);
    expect((await admin.get('/admin-api/outbox/999999')).status).toBe(404);
    expect((await owner.get(`/admin-api/outbox/1`)).status).toBe(403);
    expect((await owner.get('/admin-api/outbox')).status).toBe(403);
    expect((await new TestClient(t.baseUrl).get('/admin-api/outbox')).status).toBe(401);
  });

  it('an invitee without an account signs up with that address and finds the invitation', async () => {
    expect((await invite(owner, org.id, 'Newcomer@Example.com', ['organization-developer'])).status).toBe(
      201,
    );
    const c = new TestClient(t.baseUrl);
    const info = await body<{ baseUrl: string; parameters: Record<string, string> }>(
      await c.get('/openid-connect/authorization-info/generic?screen=signup'),
    );
    const { url } = await c.follow(`${info.baseUrl}?${new URLSearchParams(info.parameters)}`);
    const created = await c.postForm(`${new URL(url).pathname}/signup`, {
      firstName: 'New',
      lastName: 'Comer',
      email: 'newcomer@example.com',
      password: PASSWORD,
    });
    expect(created.status).toBe(303);
    const { url: callback } = await c.follow(created.headers.get('location')!);
    const exchange = await c.get(`/openid-connect/generic?${new URL(callback).searchParams}`);
    expect(exchange.status).toBe(200);
    c.csrfToken = (await body<{ csrfToken: string }>(exchange)).csrfToken;
    // Signing up proves nothing about the address: until the link sent there is opened, the
    // invitation is not the account's (else whoever signs up first with an address takes it).
    expect(await myMembership(c, org.id)).toBeUndefined();
    expect((await c.get(`/jsonapi/group/organization/${org.id}`)).status).toBe(404);
    await verifyThroughOutbox(t, 'newcomer@example.com');
    const membership = await myMembership(c, org.id);
    expect(membership).toMatchObject({ status: 'pending_invitation', roles: ['organization-developer'] });
    await accept(c, org.id);
    const members = await body<{ data: MemberResource[] }>(
      await owner.get(`/jsonapi/group_content/organization-group_membership?filter[gid]=${org.id}`),
    );
    expect(members.data.find((m) => m.attributes.email === 'Newcomer@Example.com')?.attributes).toMatchObject(
      {
        status: 'active',
        userName: 'New Comer',
      },
    );
  });

  it('lists an invitation sent before the account without writing on GET, and from memory', async () => {
    expect((await invite(owner, org.id, 'Early.Bird@example.com', ['organization-developer'])).status).toBe(
      201,
    );
    // An account created with a proven address (a company IdP vouching for it) gets the invitation
    // when it is created, not on its first read.
    const bird = await signedInUser(t, 'early.bird@example.com');
    const row = () =>
      t.app.db
        .selectFrom('memberships')
        .select(['user_id', 'status', 'changed_at'])
        .where('email', '=', 'Early.Bird@example.com')
        .executeTakeFirstOrThrow();
    const linked = await row();
    expect(linked.user_id).toEqual(expect.any(Number));
    const LIST = '/jsonapi/group/organization?page[limit]=50';
    const first = await bird.get(LIST);
    expect(first.headers.get('x-portico-cache')).toBeNull();
    const listed = await body<{ data: OrgResource[] }>(first);
    expect(listed.data.find((o) => o.id === org.id)?.meta.membership).toMatchObject({
      status: 'pending_invitation',
      roles: ['organization-developer'],
    });
    // The GET only read.
    expect(await row()).toEqual(linked);
    const again = await bird.get(LIST);
    expect(again.headers.get('x-portico-cache')).toBe('hit');
    expect(again.headers.get('cache-control')).toBe('private, no-store');

    // Accepting links it; the next list is computed again and shows the membership active.
    await accept(bird, org.id);
    expect(await row()).toMatchObject({ status: 'active', user_id: expect.any(Number) });
    const after = await bird.get(LIST);
    expect(after.headers.get('x-portico-cache')).toBeNull();
    const active = await body<{ data: OrgResource[] }>(after);
    expect(active.data.filter((o) => o.id === org.id)).toHaveLength(1);
    expect(active.data.find((o) => o.id === org.id)?.meta.membership).toMatchObject({ status: 'active' });
    // Others' lists are theirs: the owner's is not the invitee's.
    const owners = await body<{ data: OrgResource[] }>(await owner.get(LIST));
    expect(owners.data.find((o) => o.id === org.id)?.meta.membership).toMatchObject({ status: 'active' });
  });

  it('links invitations where the address is proven or the invitation sent; no GET writes', async () => {
    const memberships = () => t.app.db.selectFrom('memberships').selectAll().orderBy('id').execute();
    const rowOf = async (email: string) =>
      t.app.db
        .selectFrom('memberships as m')
        .leftJoin('users as u', 'u.id', 'm.user_id')
        .select(['m.user_id', 'u.email as linked_to'])
        .where('m.email', '=', email)
        .where('m.organization_id', '=', org.attributes.drupal_internal__id)
        .executeTakeFirstOrThrow();
    /** Every read an invitee makes of their invitations, checked to leave every row as it was. */
    async function readEverything(client: TestClient, expectSeen: boolean) {
      const before = await memberships();
      const membership = await myMembership(client, org.id);
      const single = await client.get(`/jsonapi/group/organization/${org.id}`);
      const members = await client.get(
        `/jsonapi/group_content/organization-group_membership?filter[gid]=${org.id}`,
      );
      await client.get('/jsonapi/group/organization?page[limit]=50&sort=-created');
      expect(await memberships()).toEqual(before);
      if (expectSeen) {
        expect(membership).toMatchObject({ status: 'pending_invitation' });
        expect(single.status).toBe(200);
      } else {
        expect(membership).toBeUndefined();
        expect(single.status).toBe(404);
        expect(members.status).toBe(404);
      }
    }

    // Invite, then verify: the verification links the invitation, before any read.
    const late = await signedInUser(t, 'late.prover@example.com', { verified: false });
    expect((await invite(owner, org.id, 'late.prover@example.com', ['organization-developer'])).status).toBe(
      201,
    );
    expect(await rowOf('late.prover@example.com')).toEqual({ user_id: null, linked_to: null });
    await readEverything(late, false);
    expect((await late.send('POST', '/user/verification-mail', {}, 'application/json')).status).toBe(200);
    await verifyThroughOutbox(t, 'late.prover@example.com');
    expect(await rowOf('late.prover@example.com')).toMatchObject({ linked_to: 'late.prover@example.com' });
    await readEverything(late, true);

    // Verify, then invite: the invitation is the account's from the start.
    const early = await signedInUser(t, 'early.prover@example.com', { verified: false });
    expect((await early.send('POST', '/user/verification-mail', {}, 'application/json')).status).toBe(200);
    await verifyThroughOutbox(t, 'early.prover@example.com');
    expect((await invite(owner, org.id, 'Early.Prover@example.com', ['organization-le'])).status).toBe(201);
    expect(await rowOf('Early.Prover@example.com')).toMatchObject({ linked_to: 'early.prover@example.com' });
    await readEverything(early, true);

    // Invite, then a password reset proves the address: linked by the reset.
    const resetter = await signedInUser(t, 'reset.prover@example.com', { verified: false });
    expect((await invite(owner, org.id, 'reset.prover@example.com', ['organization-le'])).status).toBe(201);
    await readEverything(resetter, false);
    await new TestClient(t.baseUrl).postForm('/idp/reset', { email: 'reset.prover@example.com' });
    const mail = await t.app.db
      .selectFrom('outbox')
      .select('text_body')
      .where('to_address', '=', 'reset.prover@example.com')
      .where('text_body', 'like', '%/idp/reset/%')
      .executeTakeFirstOrThrow();
    const resetPath = new URL(/https?:\/\/\S+\/idp\/reset\/\S+/.exec(mail.text_body)![0]).pathname;
    expect(
      (await new TestClient(t.baseUrl).postForm(resetPath, { password: 'Reset-proves#2026' })).status,
    ).toBe(200);
    expect(await rowOf('reset.prover@example.com')).toMatchObject({ linked_to: 'reset.prover@example.com' });
    const afterReset = new TestClient(t.baseUrl);
    expect((await signIn(afterReset, 'reset.prover@example.com', 'Reset-proves#2026')).status).toBe(200);
    await readEverything(afterReset, true);
    await accept(afterReset, org.id);
  });

  it('an account with an unproven address neither sees nor accepts what was sent to it', async () => {
    // The account exists (unverified) before the invitation: it is not linked to the account.
    const squatter = await signedInUser(t, 'sq.uatter@example.com', { verified: false });
    await invite(owner, org.id, 'sq.uatter@example.com', ['organization-admin']);
    expect(await myMembership(squatter, org.id)).toBeUndefined();
    expect((await squatter.get(`/jsonapi/group/organization/${org.id}`)).status).toBe(404);
    // An invitation linked to the account before verification existed is refused at acceptance.
    const row = await t.app.db
      .updateTable('memberships')
      .set({
        user_id: (
          await t.app.db
            .selectFrom('users')
            .select('id')
            .where('email', '=', 'sq.uatter@example.com')
            .executeTakeFirstOrThrow()
        ).id,
      })
      .where('email', '=', 'sq.uatter@example.com')
      .returning('uuid')
      .executeTakeFirstOrThrow();
    const refused = await squatter.send(
      'PATCH',
      `/jsonapi/group_content/organization-group_membership/${row.uuid}`,
      {
        data: {
          type: 'group_content--organization-group_membership',
          id: row.uuid,
          attributes: { field_status: 'active' },
        },
      },
    );
    expect(refused.status).toBe(403);
    expect((await body<JsonApiErrorBody>(refused)).errors[0]).toMatchObject({
      title: en.identity.verifyEmailFirst,
      code: 'email_unverified',
    });
    const membership = await t.app.db
      .selectFrom('memberships')
      .select('status')
      .where('uuid', '=', row.uuid)
      .executeTakeFirstOrThrow();
    expect(membership.status).toBe('pending_invitation');
  });

  it('the invitee may ignore an invitation (deleting it); an owner may cancel one', async () => {
    const invitee = await signedInUser(t, 'ivy.ignore@example.com');
    await invite(owner, org.id, 'ivy.ignore@example.com', ['organization-le']);
    const m = await myMembership(invitee, org.id);
    expect(
      (await invitee.send('DELETE', `/jsonapi/group_content/organization-group_membership/${m!.id}`)).status,
    ).toBe(204);
    expect(await myMembership(invitee, org.id)).toBeUndefined();
    expect((await invitee.get(`/jsonapi/group/organization/${org.id}`)).status).toBe(404);
    const cancelled = await body<{ data: MemberResource }>(
      await invite(owner, org.id, 'cancel@example.com', ['organization-le']),
    );
    expect(
      (
        await owner.send(
          'DELETE',
          `/jsonapi/group_content/organization-group_membership/${cancelled.data.id}`,
        )
      ).status,
    ).toBe(204);
    const accept422 = await invitee.send(
      'PATCH',
      `/jsonapi/group_content/organization-group_membership/${cancelled.data.id}`,
      {
        data: {
          type: 'group_content--organization-group_membership',
          attributes: { field_status: 'active' },
        },
      },
    );
    expect(accept422.status).toBe(404);
  });
});

describe('organizations: JSON:API queries (filters, sorts and paging of the shared layer)', () => {
  let t: TestApp;
  let owner: TestClient;
  let other: TestClient;
  let ownerUuid: string;
  const orgs = new Map<string, OrgResource>();
  const org = (label: string): OrgResource => {
    const found = orgs.get(label);
    if (!found) throw new Error(`no organization ${label}`);
    return found;
  };

  type List = {
    data: OrgResource[];
    meta: { count: number };
    links: { self: { href: string }; next?: { href: string }; prev?: { href: string } };
  };
  const labels = (list: { data: OrgResource[] }) => list.data.map((o) => o.attributes.label);
  const list = async (client: TestClient, query: string) => {
    const res = await client.get(`/jsonapi/group/organization?${query}`);
    expect(res.status).toBe(200);
    return body<List>(res);
  };
  /** A 400 of the shared layer naming `parameter`. */
  const rejects = async (client: TestClient, url: string, parameter: string) => {
    const res = await client.get(url);
    expect(res.status, url).toBe(400);
    expect(res.headers.get('content-type')).toContain('application/vnd.api+json');
    const error = (await body<QueryErrorBody>(res)).errors[0];
    expect(error, url).toMatchObject({ status: '400', code: 'invalid_query', source: { parameter } });
    expect(error?.title.length).toBeGreaterThan(0);
  };

  beforeAll(async () => {
    t = await startTestApp({ LOGIN_RATE_LIMIT: '1000' });
    owner = await signedInUser(t, 'quinn.query@example.com');
    other = await signedInUser(t, 'oscar.other@example.com');
    for (const name of ['Acme Bank', 'acme labs', 'Zeta Works']) orgs.set(name, await createOrg(owner, name));
    // An organization of someone else that invites the owner: listed, but not created by them.
    orgs.set('Other Org', await createOrg(other, 'Other Org'));
    expect(
      (await invite(other, org('Other Org').id, 'quinn.query@example.com', ['organization-le'])).status,
    ).toBe(201);
    // Not the owner's at all: never listed, whatever the filter.
    orgs.set('Hidden Acme', await createOrg(other, 'Hidden Acme'));
    ownerUuid = org('Acme Bank').relationships.uid.data!.id;
  });
  afterAll(async () => {
    await t?.close();
  });

  it('filters the organization list by label (any operator, case-insensitive), id and creator', async () => {
    expect(labels(await list(owner, ''))).toEqual(['Acme Bank', 'acme labs', 'Other Org', 'Zeta Works']);
    const contains = await list(owner, 'filter[label][operator]=CONTAINS&filter[label][value]=ACME');
    expect(labels(contains)).toEqual(['Acme Bank', 'acme labs']);
    expect(contains.meta.count).toBe(2);
    expect(labels(await list(owner, `filter[label]=${encodeURIComponent('acme BANK')}`))).toEqual([
      'Acme Bank',
    ]);
    expect(
      labels(
        await list(
          owner,
          'filter[s][condition][path]=label&filter[s][condition][operator]=STARTS_WITH&filter[s][condition][value]=z',
        ),
      ),
    ).toEqual(['Zeta Works']);
    expect(labels(await list(owner, `filter[id]=${org('Zeta Works').id}`))).toEqual(['Zeta Works']);
    expect(
      labels(
        await list(owner, `filter[drupal_internal__id]=${org('acme labs').attributes.drupal_internal__id}`),
      ),
    ).toEqual(['acme labs']);
    expect(labels(await list(owner, `filter[uid.id]=${ownerUuid}`))).toEqual([
      'Acme Bank',
      'acme labs',
      'Zeta Works',
    ]);
    expect(
      labels(
        await list(
          owner,
          'filter[field_body.value][operator]=ENDS_WITH&filter[field_body.value][value]=works',
        ),
      ),
    ).toEqual(['Zeta Works']);
    // OR groups and lists.
    const either = await list(
      owner,
      'filter[g][group][conjunction]=OR' +
        '&filter[a][condition][path]=label&filter[a][condition][value]=zeta works&filter[a][condition][memberOf]=g' +
        `&filter[b][condition][path]=id&filter[b][condition][operator]=IN&filter[b][condition][value][]=${org('Other Org').id}&filter[b][condition][memberOf]=g`,
    );
    expect(labels(either)).toEqual(['Other Org', 'Zeta Works']);
    // A filter never widens the list beyond the caller's memberships and invitations.
    expect((await list(owner, `filter[id]=${org('Hidden Acme').id}`)).data).toEqual([]);
    expect(labels(await list(other, 'filter[label][operator]=CONTAINS&filter[label][value]=acme'))).toEqual([
      'Hidden Acme',
    ]);
  });

  it('filters by created and changed, sorts by any sortable field', async () => {
    const created = (o: OrgResource) =>
      (o as unknown as { attributes: { created: string } }).attributes.created;
    const all = (await list(owner, 'sort=created')).data;
    expect(all.map((o) => o.attributes.label)).toEqual(['Acme Bank', 'acme labs', 'Zeta Works', 'Other Org']);
    const since = encodeURIComponent(created(all[2]!));
    expect(labels(await list(owner, `filter[created][operator]=>=&filter[created][value]=${since}`))).toEqual(
      ['Other Org', 'Zeta Works'],
    );
    expect(labels(await list(owner, 'sort=-label'))).toEqual([
      'Zeta Works',
      'Other Org',
      'acme labs',
      'Acme Bank',
    ]);
    expect(labels(await list(owner, 'sort=-drupal_internal__id&page[limit]=1'))).toEqual(['Other Org']);
    expect(labels(await list(owner, 'sort=-changed,label&page[limit]=1'))).toHaveLength(1);
  });

  it('pages with the filter kept in links; page[limit] above 50 is lowered to 50, 0 gives only the count', async () => {
    const first = await list(owner, 'filter[label][operator]=CONTAINS&filter[label][value]=e&page[limit]=2');
    expect(first.meta.count).toBe(4);
    expect(first.data).toHaveLength(2);
    const next = new URL(first.links.next!.href);
    expect(next.searchParams.get('filter[label][value]')).toBe('e');
    expect(next.searchParams.get('page[offset]')).toBe('2');
    const second = await body<List>(await owner.get(next.pathname + next.search));
    expect(labels(second)).toEqual(['Other Org', 'Zeta Works']);
    expect(second.links.next).toBeUndefined();
    expect(new URL(second.links.prev!.href).searchParams.get('page[offset]')).toBe('0');
    // Lowered, as Drupal does (this was a 400 before the shared layer): the links carry 50.
    const big = await list(owner, 'page[limit]=500&page[offset]=1');
    expect(big.data).toHaveLength(3);
    expect(new URL(big.links.prev!.href).searchParams.get('page[limit]')).toBe('50');
    const none = await list(owner, 'page[limit]=0');
    expect(none.data).toEqual([]);
    expect(none.meta.count).toBe(4);
  });

  it('applies sparse fieldsets to the organizations and the included files', async () => {
    expect((await upload(owner, org('Acme Bank').id, 'field_image', 'logo.png', PNG_1X1)).status).toBe(201);
    const sparse = await body<{
      data: {
        attributes?: Record<string, unknown>;
        relationships?: Record<string, unknown>;
        meta: unknown;
      }[];
      included: { attributes: Record<string, unknown> }[];
    }>(
      await owner.get(
        '/jsonapi/group/organization?filter[label]=acme%20bank&include=field_image' +
          '&fields[group--organization]=label,field_image&fields[file--file]=url',
      ),
    );
    expect(Object.keys(sparse.data[0]!.attributes!)).toEqual(['label']);
    expect(Object.keys(sparse.data[0]!.relationships!)).toEqual(['field_image']);
    expect(sparse.data[0]!.meta).toBeDefined();
    expect(Object.keys(sparse.included[0]!.attributes)).toEqual(['url']);
    const one = await body<{ data: { attributes: Record<string, unknown> } }>(
      await owner.get(`/jsonapi/group/organization/${org('Acme Bank').id}?fields[group--organization]=label`),
    );
    expect(one.data.attributes).toEqual({ label: 'Acme Bank' });
  });

  it('answers an invalid organization query with a 400 naming the parameter', async () => {
    const base = '/jsonapi/group/organization';
    await rejects(owner, `${base}?filter[x]=1`, 'filter[x]');
    await rejects(
      owner,
      `${base}?filter[x][condition][path]=title&filter[x][condition][value]=a`,
      'filter[x][condition][path]',
    );
    await rejects(
      owner,
      `${base}?filter[drupal_internal__id][operator]=CONTAINS&filter[drupal_internal__id][value]=1`,
      'filter[drupal_internal__id][operator]',
    );
    await rejects(owner, `${base}?filter[created]=yesterday`, 'filter[created]');
    await rejects(owner, `${base}?filter[id]=not-a-uuid`, 'filter[id]');
    await rejects(owner, `${base}?sort=title`, 'sort');
    await rejects(owner, `${base}?sort=field_body.value`, 'sort');
    await rejects(owner, `${base}?include=uid`, 'include');
    await rejects(owner, `${base}?page[limit]=-1`, 'page[limit]');
    await rejects(owner, `${base}?page[offset]=x`, 'page[offset]');
    await rejects(owner, `${base}?fields[node--page]=title`, 'fields[node--page]');
    await rejects(owner, `${base}?fields[group--organization]=secret`, 'fields[group--organization]');
    await rejects(owner, `${base}?q=acme`, 'q');
    // The single organization: include and fields apply; filter and sort are checked too.
    const one = `${base}/${org('Acme Bank').id}`;
    await rejects(owner, `${one}?include=uid`, 'include');
    await rejects(owner, `${one}?sort=title`, 'sort');
    await rejects(owner, `${one}?foo=1`, 'foo');
    // Access is decided first: a stranger's bad query is still a 404.
    expect((await other.get(`${base}/${org('Zeta Works').id}?include=uid`)).status).toBe(404);
    expect((await new TestClient(t.baseUrl).get(`${base}?filter[x]=1`)).status).toBe(401);
  });

  it('filters and sorts the members of an organization; gid is required and checked', async () => {
    const acme = org('Acme Bank');
    for (const email of ['m1@example.com', 'm2@example.com'])
      expect((await invite(owner, acme.id, email, ['organization-developer'])).status).toBe(201);
    const members = async (query: string) => {
      const res = await owner.get(`/jsonapi/group_content/organization-group_membership?${query}`);
      expect(res.status, query).toBe(200);
      return body<{ data: MemberResource[]; meta: { count: number } }>(res);
    };
    const emails = (doc: { data: MemberResource[] }) => doc.data.map((m) => m.attributes.email);
    expect(emails(await members(`filter[gid]=${acme.id}`))).toEqual([
      'quinn.query@example.com',
      'm1@example.com',
      'm2@example.com',
    ]);
    expect(
      emails(await members(`filter[gid.id]=${acme.id}&filter[status]=pending_invitation&sort=-created`)),
    ).toEqual(['m2@example.com', 'm1@example.com']);
    expect(
      emails(
        await members(`filter[gid]=${acme.id}&filter[email][operator]=STARTS_WITH&filter[email][value]=M1`),
      ),
    ).toEqual(['m1@example.com']);
    expect(emails(await members(`filter[gid]=${acme.id}&filter[entity_id.id]=${ownerUuid}`))).toEqual([
      'quinn.query@example.com',
    ]);
    const paged = await members(`filter[gid]=${acme.id}&page[limit]=1&page[offset]=1`);
    expect(paged.meta.count).toBe(3);
    expect(emails(paged)).toEqual(['m1@example.com']);

    const url = '/jsonapi/group_content/organization-group_membership';
    await rejects(owner, url, 'filter[gid]');
    await rejects(owner, `${url}?filter[gid]=acme`, 'filter[gid]');
    await rejects(
      owner,
      `${url}?filter[gid][operator]=IN&filter[gid][value][]=${acme.id}`,
      'filter[gid][operator]',
    );
    await rejects(
      owner,
      `${url}?filter[o][group][conjunction]=OR&filter[a][condition][path]=gid&filter[a][condition][value]=${acme.id}&filter[a][condition][memberOf]=o`,
      'filter[gid]',
    );
    await rejects(owner, `${url}?filter[gid]=${acme.id}&filter[roles]=x`, 'filter[roles]');
    await rejects(owner, `${url}?filter[gid]=${acme.id}&filter[status]=gone`, 'filter[status]');
    await rejects(owner, `${url}?filter[gid]=${acme.id}&sort=email,-userName`, 'sort');
    // Someone else's organization stays a 404.
    expect((await other.get(`${url}?filter[gid]=${acme.id}`)).status).toBe(404);
  });

  it('filters and sorts the outbox for administrators', async () => {
    const admin = await signedInUser(t, 'ada.admin@example.com', { admin: true });
    type Outbox = { data: { attributes: { to: string; status: string } }[]; meta: { count: number } };
    const all = await body<Outbox>(await admin.get('/admin-api/outbox'));
    expect(all.meta.count).toBeGreaterThanOrEqual(3);
    const m1 = await body<Outbox>(await admin.get('/admin-api/outbox?filter[to]=m1@example.com'));
    expect(m1.data.map((m) => m.attributes.to)).toEqual(['m1@example.com']);
    const oldest = await body<Outbox>(await admin.get('/admin-api/outbox?sort=created&page[limit]=1'));
    expect(oldest.data[0]?.attributes.to).toBe('quinn.query@example.com');
    expect((await body<Outbox>(await admin.get('/admin-api/outbox?filter[status]=stored'))).meta.count).toBe(
      all.meta.count,
    );
    await rejects(admin, '/admin-api/outbox?filter[status]=lost', 'filter[status]');
    await rejects(admin, '/admin-api/outbox?filter[html]=x', 'filter[html]');
    await rejects(admin, '/admin-api/outbox?page[size]=1', 'page[size]');
    expect((await owner.get('/admin-api/outbox?filter[html]=x')).status).toBe(403);
  });
});
