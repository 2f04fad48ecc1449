import { en } from '@portico/contracts/messages';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Selectable } from 'kysely';
import { z } from 'zod';
import type { MembershipsTable } from '../../db/schema.ts';
import { HttpError, badRequest, notFound, unauthorized } from '../../lib/errors.ts';
import { hitRateLimit } from '../../lib/rate-limit.ts';
import { requireUser } from '../../plugins/session.ts';
import {
  OWNER_ROLE,
  ROLE_IDS,
  UUID,
  assertCan,
  isRoleId,
  loadOrgAccess,
  type OrgAccess,
  type RoleId,
} from './authz.ts';
import { pageLinks, parsePage, rejectUnknown, single, type Query } from './query.ts';
import {
  ApiErrors,
  baseUrl,
  membershipResource,
  roleResource,
  sendDocument,
  type RoleRow,
} from './resources.ts';

const M = en.organizations;
/** Invitation e-mails go to any address: an account may send this many per hour... */
export const INVITES_PER_HOUR = 100;
/** ...and one invitation may be resent this many times per hour. */
export const RESENDS_PER_HOUR = 5;
type MembershipRow = Selectable<MembershipsTable>;

/** Pragmatic address check (the web form uses the same rule through zod). */
const emailSchema = z.email();

/** Role references as the web may send them: ids, uuids, or {id} objects; a string may list several. */
const roleRefs = z.union([
  z.array(
    z.union([z.string(), z.object({ id: z.string() }).loose(), z.object({ target_id: z.string() }).loose()]),
  ),
  z.string(),
]);

function roleRefList(value: z.infer<typeof roleRefs>): string[] {
  const items = typeof value === 'string' ? value.split(',') : value;
  return items
    .map((item): string =>
      typeof item === 'string' ? item : 'id' in item ? String(item.id) : String(item.target_id),
    )
    .map((s) => s.trim())
    .filter(Boolean);
}

export async function membershipRoutes(app: FastifyInstance): Promise<void> {
  const db = app.db;

  async function limit(key: string, max: number): Promise<void> {
    const hit = await hitRateLimit(db, key, max, 3600_000);
    if (!hit.allowed) throw new HttpError(429, M.tooManyInvitations);
  }

  async function roleRows(): Promise<RoleRow[]> {
    return db.selectFrom('organization_roles').selectAll().orderBy('weight').execute();
  }

  /** Role ids from references by id or uuid; throws 422 with the pointer for unknown ones. */
  async function resolveRoles(refs: string[], pointer: string): Promise<RoleId[]> {
    const roles = await roleRows();
    const out = new Set<RoleId>();
    for (const ref of refs) {
      const role = roles.find((r) => r.id === ref || r.uuid === ref.toLowerCase());
      if (!role || !isRoleId(role.id))
        throw new ApiErrors(422, [{ title: M.unknownRole.replace('{{role}}', ref), pointer }]);
      out.add(role.id);
    }
    return ROLE_IDS.filter((r) => out.has(r));
  }

  async function memberDocument(request: FastifyRequest, access: OrgAccess, members: MembershipRow[]) {
    const userIds = members.map((m) => m.user_id).filter((x): x is number => x !== null);
    const users = userIds.length
      ? await db
          .selectFrom('users')
          .select(['id', 'uuid', 'name', 'first_name', 'last_name'])
          .where('id', 'in', userIds)
          .execute()
      : [];
    const roleUuids = new Map((await roleRows()).map((r) => [r.id, r.uuid]));
    const base = baseUrl(request);
    return members.map((m) => {
      const u = users.find((x) => x.id === m.user_id);
      return membershipResource(base, m, {
        user: u ? { uuid: u.uuid, name: u.name } : null,
        creatorId: access.org.creator_id,
        orgUuid: access.org.uuid,
        roleUuids,
      });
    });
  }

  async function membershipByUuid(uuid: string): Promise<MembershipRow> {
    if (!UUID.test(uuid)) throw notFound();
    const m = await db
      .selectFrom('memberships')
      .selectAll()
      .where('uuid', '=', uuid.toLowerCase())
      .executeTakeFirst();
    if (!m) throw notFound();
    return m;
  }

  async function sendInvitation(
    request: FastifyRequest,
    access: OrgAccess,
    m: MembershipRow,
  ): Promise<boolean> {
    const roles = await roleRows();
    const labels = m.roles.map((r) => roles.find((x) => x.id === r)?.label ?? r).join(', ');
    const link = `${app.config.publicUrl}/organization/${access.org.uuid}`;
    const fill = (text: string) =>
      text
        .replaceAll('{{organization}}', access.org.title)
        .replaceAll('{{inviter}}', access.user.name)
        .replaceAll('{{roles}}', labels)
        .replaceAll('{{link}}', link);
    try {
      await app.mailer.send({ to: m.email, subject: fill(M.inviteSubject), text: fill(M.inviteText) });
      return true;
    } catch (err) {
      // The invitation stands (it is in the outbox as failed); the owner can resend it.
      request.log.warn({ err, membershipId: m.id }, 'invitation e-mail failed');
      return false;
    }
  }

  /** Members and invitations of one organization: GET ...?filter[gid]={uuid}. */
  app.get<{ Querystring: Query }>(
    '/jsonapi/group_content/organization-group_membership',
    async (request, reply) => {
      if (!request.user) throw unauthorized();
      const q = request.query;
      rejectUnknown(q, (k) => ['filter[gid]', 'filter[gid.id]', 'page[limit]', 'page[offset]'].includes(k));
      const gid = single(q, 'filter[gid]') ?? single(q, 'filter[gid.id]');
      if (!gid)
        throw badRequest('Filter the memberships by organization: filter[gid]={uuid}.', 'filter[gid]');
      const page = parsePage(q, 50);
      const access = await loadOrgAccess(db, request.user, gid);
      assertCan(access, 'view members');
      const all = db.selectFrom('memberships').where('organization_id', '=', access.org.id);
      const { count } = await all
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .executeTakeFirstOrThrow();
      const rows = await all
        .selectAll()
        .orderBy('created_at')
        .orderBy('id')
        .limit(page.limit)
        .offset(page.offset)
        .execute();
      return sendDocument(reply, 200, {
        data: await memberDocument(request, access, rows),
        meta: { count },
        links: pageLinks(request, page, count),
      });
    },
  );

  const patchSchema = z.object({
    data: z.object({
      type: z.literal('group_content--organization-group_membership'),
      id: z.string().optional(),
      attributes: z.object({ field_status: z.string() }).partial().strict().optional(),
      relationships: z
        .object({ group_roles: z.object({ data: roleRefs }) })
        .partial()
        .strict()
        .optional(),
    }),
  });

  /** Accept an invitation (field_status: 'active', by the invitee) or change roles (group_roles). */
  app.patch<{ Params: { uuid: string } }>(
    '/jsonapi/group_content/organization-group_membership/:uuid',
    async (request, reply) => {
      const user = requireUser(request);
      const target = await membershipByUuid(request.params.uuid);
      const access = await loadOrgAccess(db, user, target.organization_id);
      const parsed = patchSchema.safeParse(request.body);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        throw new HttpError(422, issue ? `${issue.path.join('.')}: ${issue.message}` : 'Invalid document', {
          pointer: `/${issue?.path.join('/') ?? ''}`,
        });
      }
      const { data } = parsed.data;
      if (data.id !== undefined && data.id !== target.uuid)
        throw new HttpError(409, 'The id in the document does not match the URL.');
      const isSelf = access.membership.id === target.id;
      const status = data.attributes?.field_status;
      const roleData = data.relationships?.group_roles?.data;
      if (status === undefined && roleData === undefined)
        throw new ApiErrors(422, [
          { title: 'Nothing to change: send field_status or group_roles.', pointer: '/data' },
        ]);
      const changes: { status?: 'active'; roles?: RoleId[]; user_id?: number } = {};
      if (status !== undefined) {
        if (!isSelf) {
          // Others' invitations: members get a clear 403 (strangers got 404 above).
          throw new HttpError(403, M.onlyInviteeMayAccept);
        }
        if (target.status === 'blocked')
          throw new HttpError(403, 'Your membership of this organization is blocked.');
        if (status !== 'active')
          throw new ApiErrors(422, [{ title: M.invalidStatus, pointer: '/data/attributes/field_status' }]);
        changes.status = 'active';
        changes.user_id = user.id;
      }
      if (roleData !== undefined) {
        assertCan(access, 'edit member roles');
        const refs = roleRefList(roleData);
        if (!refs.length)
          throw new ApiErrors(422, [{ title: M.roleRequired, pointer: '/data/relationships/group_roles' }]);
        const roles = await resolveRoles(refs, '/data/relationships/group_roles');
        const targetIsCreator = access.org.creator_id !== null && target.user_id === access.org.creator_id;
        if (targetIsCreator && !roles.includes(OWNER_ROLE))
          throw new ApiErrors(422, [
            { title: M.creatorKeepsOwner, pointer: '/data/relationships/group_roles' },
          ]);
        changes.roles = roles;
      }
      const updated = await db
        .updateTable('memberships')
        .set({ ...changes, changed_at: new Date() })
        .where('id', '=', target.id)
        .returningAll()
        .executeTakeFirst();
      if (!updated) throw notFound();
      if (changes.status) request.log.info({ membershipId: target.id }, 'invitation accepted');
      const [resource] = await memberDocument(request, access, [updated]);
      return sendDocument(reply, 200, { data: resource });
    },
  );

  /** Remove a member, cancel an invitation, or (the invitee) ignore it. Never the creator. */
  app.delete<{ Params: { uuid: string } }>(
    '/jsonapi/group_content/organization-group_membership/:uuid',
    async (request, reply) => {
      const user = requireUser(request);
      const target = await membershipByUuid(request.params.uuid);
      const access = await loadOrgAccess(db, user, target.organization_id);
      const isSelf = access.membership.id === target.id;
      if (!isSelf) assertCan(access, 'administer members');
      if (access.org.creator_id !== null && target.user_id === access.org.creator_id)
        throw new HttpError(403, M.creatorCannotBeRemoved);
      await db.deleteFrom('memberships').where('id', '=', target.id).execute();
      request.log.info({ membershipId: target.id, self: isSelf }, 'membership removed');
      return reply.status(204).send();
    },
  );

  /** The four organization roles; ?filter by their ids is accepted in Drupal's forms. */
  app.get<{ Querystring: Query }>('/jsonapi/group_role/group_role', async (request, reply) => {
    if (!request.user) throw unauthorized();
    const wanted = roleFilter(request.query);
    const rows = (await roleRows()).filter((r) => !wanted || wanted.has(r.id) || wanted.has(r.uuid));
    const base = baseUrl(request);
    return sendDocument(reply, 200, {
      data: rows.map((r) => roleResource(base, r)),
      meta: { count: rows.length },
      links: { self: { href: `${base}${request.url}` } },
    });
  });

  const inviteSchema = z.object({
    group_roles: roleRefs.optional(),
    gid: z.union([z.string(), z.number()]),
    email: z.unknown().optional(),
  });

  /** Invite by e-mail: POST /phpsdk/organization/invite {group_roles, gid, email} → 201. */
  app.post('/phpsdk/organization/invite', async (request, reply) => {
    const user = requireUser(request);
    const parsed = inviteSchema.safeParse(request.body);
    if (!parsed.success)
      throw new ApiErrors(422, [
        {
          title: 'Send group_roles, gid and email.',
          pointer: `/${parsed.error.issues[0]?.path.join('/') ?? ''}`,
        },
      ]);
    const access = await loadOrgAccess(db, user, parsed.data.gid);
    assertCan(access, 'administer members');
    const email = typeof parsed.data.email === 'string' ? parsed.data.email.trim() : '';
    const refs = parsed.data.group_roles ? roleRefList(parsed.data.group_roles) : [];
    const errors = [];
    if (!emailSchema.safeParse(email).success || email.length > 254)
      errors.push({ title: M.invalidEmail, pointer: '/email' });
    if (!refs.length) errors.push({ title: M.rolesRequired, pointer: '/group_roles' });
    if (errors.length) throw new ApiErrors(422, errors);
    const roles = await resolveRoles(refs, '/group_roles');
    await limit(`invite:user:${user.id}`, INVITES_PER_HOUR);
    const invitee = await db
      .selectFrom('users')
      .select(['id'])
      .where((eb) => eb(eb.fn('lower', ['email']), '=', email.toLowerCase()))
      .executeTakeFirst();
    // One membership per address: concurrent invitations of one address insert one row.
    const created = await db
      .insertInto('memberships')
      .values({
        organization_id: access.org.id,
        user_id: invitee?.id ?? null,
        email,
        status: 'pending_invitation',
        roles,
        invited_by: user.id,
      })
      .onConflict((oc) => oc.doNothing())
      .returningAll()
      .executeTakeFirst();
    if (!created) {
      const existing = await db
        .selectFrom('memberships')
        .select('status')
        .where('organization_id', '=', access.org.id)
        .where((eb) =>
          eb.or([
            eb(eb.fn('lower', ['email']), '=', email.toLowerCase()),
            ...(invitee ? [eb('user_id', '=', invitee.id)] : []),
          ]),
        )
        .executeTakeFirst();
      throw new HttpError(
        409,
        existing?.status === 'pending_invitation' ? M.alreadyInvited : M.alreadyMember,
        {
          pointer: '/email',
        },
      );
    }
    request.log.info({ membershipId: created.id, organizationId: access.org.id }, 'member invited');
    const mailSent = await sendInvitation(request, access, created);
    const [resource] = await memberDocument(request, access, [created]);
    return sendDocument(reply, 201, { data: resource, meta: { mailSent } });
  });

  const resendSchema = z.object({
    gid: z.union([z.string(), z.number()]),
    membershipId: z.union([z.string(), z.number()]),
  });

  /** Resend an invitation: POST /phpsdk/organization/invite-resend {gid, membershipId} → 200. */
  app.post('/phpsdk/organization/invite-resend', async (request, reply) => {
    const user = requireUser(request);
    const parsed = resendSchema.safeParse(request.body);
    if (!parsed.success)
      throw new ApiErrors(422, [
        { title: 'Send gid and membershipId.', pointer: `/${parsed.error.issues[0]?.path.join('/') ?? ''}` },
      ]);
    const access = await loadOrgAccess(db, user, parsed.data.gid);
    assertCan(access, 'administer members');
    const ref = String(parsed.data.membershipId);
    const target = await db
      .selectFrom('memberships')
      .selectAll()
      .where('organization_id', '=', access.org.id)
      .$call((qb) =>
        /^\d{1,9}$/.test(ref)
          ? qb.where('id', '=', Number(ref))
          : UUID.test(ref)
            ? qb.where('uuid', '=', ref.toLowerCase())
            : qb.where('id', '=', -1),
      )
      .executeTakeFirst();
    if (!target) throw notFound();
    if (target.status !== 'pending_invitation') throw new HttpError(409, M.invitationAlreadyAccepted);
    await limit(`invite-resend:${target.id}`, RESENDS_PER_HOUR);
    const updated = await db
      .updateTable('memberships')
      .set({ resent_at: new Date(), changed_at: new Date() })
      .where('id', '=', target.id)
      .returningAll()
      .executeTakeFirstOrThrow();
    const mailSent = await sendInvitation(request, access, updated);
    const [resource] = await memberDocument(request, access, [updated]);
    return sendDocument(reply, 200, { data: resource, meta: { message: M.invitationSent, mailSent } });
  });
}

/**
 * The role filter of `GET /jsonapi/group_role/group_role`: short form
 * `filter[drupal_internal__id]=x` (or `[value][]`), or the condition form with path
 * `drupal_internal__id` / `id` and operator `IN` / `=`. Undefined means no filter.
 */
export function roleFilter(query: Query): Set<string> | undefined {
  const values = new Set<string>();
  let any = false;
  const conditions = new Map<string, { path?: string; operator?: string; values: string[] }>();
  const list = (v: string | string[] | undefined) => (Array.isArray(v) ? v : v === undefined ? [] : [v]);
  for (const [key, raw] of Object.entries(query)) {
    if (key === '_format') continue;
    const short = /^filter\[(drupal_internal__id|id)\](?:\[value\](?:\[\d*\])?)?$/.exec(key);
    if (short) {
      any = true;
      for (const v of list(raw)) values.add(v);
      continue;
    }
    const cond = /^filter\[([^\]]+)\]\[condition\]\[(path|operator|value)\](?:\[\d*\])?$/.exec(key);
    if (cond) {
      const entry = conditions.get(cond[1]!) ?? { values: [] };
      if (cond[2] === 'path') entry.path = single(query, key);
      else if (cond[2] === 'operator') entry.operator = single(query, key);
      else entry.values.push(...list(raw));
      conditions.set(cond[1]!, entry);
      continue;
    }
    throw badRequest(`The query parameter ${key} is not supported here.`, key);
  }
  for (const [name, c] of conditions) {
    if (c.path !== 'drupal_internal__id' && c.path !== 'id')
      throw badRequest(
        'Roles can be filtered by drupal_internal__id only.',
        `filter[${name}][condition][path]`,
      );
    const op = (c.operator ?? '=').toUpperCase();
    if (op !== 'IN' && op !== '=')
      throw badRequest('Use the operator IN or =.', `filter[${name}][condition][operator]`);
    any = true;
    for (const v of c.values) values.add(v);
  }
  return any ? values : undefined;
}
