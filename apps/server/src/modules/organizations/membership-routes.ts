import { en } from '@portico/contracts/messages';
import { texts } from '../../lib/i18n.ts';
import { recipientLocale } from '../../lib/mailer.ts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Selectable } from 'kysely';
import { z } from 'zod';
import type { MembershipsTable } from '../../db/schema.ts';
import {
  collectionDocument,
  requestUrl,
  sendDocument,
  type ResourceObject,
  baseUrl,
} from '../../jsonapi/document.ts';
import { refuseUnknownFields, ApiErrors } from '../../jsonapi/errors.ts';
import { checkQuery } from '../../jsonapi/resource.ts';
import { fetchCollection } from '../../jsonapi/kysely.ts';
import { parseJsonApiQuery } from '../../jsonapi/query.ts';
import { HttpError, notFound, unauthorized } from '../../lib/errors.ts';
import { hitRateLimit } from '../../lib/rate-limit.ts';
import { requireUser } from '../../plugins/session.ts';
import { actorOf, recordAudit } from '../audit/service.ts';
import { requireVerifiedEmail } from '../identity/service.ts';
import {
  OWNER_ROLE,
  ROLE_IDS,
  assertCan,
  isRoleId,
  loadOrgAccess,
  type OrgAccess,
  type RoleId,
} from './authz.ts';
import {
  MEMBER_PAGE,
  allRoles,
  memberCollection,
  membersOf,
  organizationOf,
  roleCollection,
} from './collections.ts';
import { membershipResource, roleResource, type RoleRow } from './resources.ts';
import { serialId, UUID } from '../../lib/ids.ts';

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

  async function memberDocument(
    request: FastifyRequest,
    access: OrgAccess,
    members: MembershipRow[],
  ): Promise<ResourceObject[]> {
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
      // In the invitee's language when they have an account, else English.
      const T = texts(await recipientLocale(app.db, m.email), 'emails', 'organizations');
      await app.mailer.send({
        to: m.email,
        subject: fill(T.template('inviteSubject')),
        text: fill(T.template('inviteText')),
      });
      return true;
    } catch (err) {
      // The invitation stands (it is in the outbox as failed); the owner can resend it.
      request.log.warn({ err, membershipId: m.id }, 'invitation e-mail failed');
      return false;
    }
  }

  /** Members and invitations of one organization: GET ...?filter[gid]={uuid}. */
  app.get('/jsonapi/group_content/organization-group_membership', async (request, reply) => {
    if (!request.user) throw unauthorized();
    const query = parseJsonApiQuery(request.query, MEMBER_PAGE);
    checkQuery(memberCollection, query);
    const access = await loadOrgAccess(db, request.user, organizationOf(query.filter));
    assertCan(access, 'view members');
    const { rows, count } = await fetchCollection(db, membersOf(db, access.org.id), memberCollection, query);
    return sendDocument(
      reply,
      collectionDocument({
        url: requestUrl(request),
        data: await memberDocument(request, access, rows),
        count,
        page: query.page,
      }),
    );
  });

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
      refuseUnknownFields(request.body, 'group_content--organization-group_membership', {
        attributes: ['field_status'],
        relationships: ['group_roles'],
      });
      const parsed = patchSchema.safeParse(request.body, { reportInput: true });
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        throw new HttpError(422, issue ? `${issue.path.join('.')}: ${issue.message}` : 'Invalid document', {
          pointer: `/${issue?.path.join('/') ?? ''}`,
          issues: parsed.error.issues.slice(0, 1),
        });
      }
      const { data } = parsed.data;
      if (data.id !== undefined && data.id !== target.uuid) throw new HttpError(409, en.api.idMismatch);
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
        if (target.status === 'blocked') throw new HttpError(403, en.api.membershipBlocked);
        // An invitation is accepted by whoever proves the address it was sent to.
        requireVerifiedEmail(user);
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
      const updated = await db.transaction().execute(async (trx) => {
        const row = await trx
          .updateTable('memberships')
          .set({ ...changes, changed_at: new Date() })
          .where('id', '=', target.id)
          .returningAll()
          .executeTakeFirst();
        if (!row) throw notFound();
        const entry = {
          targetType: 'membership',
          targetId: row.uuid,
          targetLabel: row.email,
          organizationId: row.organization_id,
        };
        if (changes.status && target.status !== 'active')
          await recordAudit(trx, actorOf(request), {
            ...entry,
            action: 'membership.accepted',
            before: { status: target.status },
            after: { status: row.status, roles: row.roles },
          });
        if (changes.roles && changes.roles.join() !== target.roles.join())
          await recordAudit(trx, actorOf(request), {
            ...entry,
            action: 'membership.roles_changed',
            before: { roles: target.roles },
            after: { roles: row.roles },
          });
        return row;
      });
      if (changes.status) request.log.info({ membershipId: target.id }, 'invitation accepted');
      const [resource] = await memberDocument(request, access, [updated]);
      return sendDocument(reply, { data: resource ?? null });
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
      await db.transaction().execute(async (trx) => {
        const gone = await trx.deleteFrom('memberships').where('id', '=', target.id).executeTakeFirst();
        if (!gone.numDeletedRows) return;
        await recordAudit(trx, actorOf(request), {
          action: 'membership.removed',
          targetType: 'membership',
          targetId: target.uuid,
          targetLabel: target.email,
          organizationId: target.organization_id,
          before: { status: target.status, roles: target.roles },
        });
      });
      request.log.info({ membershipId: target.id, self: isSelf }, 'membership removed');
      return reply.status(204).send();
    },
  );

  /** The four organization roles; the web filters them by id (drupal_internal__id IN ...). */
  app.get('/jsonapi/group_role/group_role', async (request, reply) => {
    if (!request.user) throw unauthorized();
    const query = parseJsonApiQuery(request.query, MEMBER_PAGE);
    const { rows, count } = await fetchCollection(db, allRoles(db), roleCollection, query);
    const base = baseUrl(request);
    return sendDocument(
      reply,
      collectionDocument({
        url: requestUrl(request),
        data: rows.map((r) => roleResource(base, r)),
        count,
        page: query.page,
      }),
    );
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
    // An account whose address is not proven gets the invitation once it proves it (by e-mail).
    const invitee = await db
      .selectFrom('users')
      .select(['id'])
      .where((eb) => eb(eb.fn('lower', ['email']), '=', email.toLowerCase()))
      .where('email_verified', '=', true)
      .executeTakeFirst();
    // One membership per address: concurrent invitations of one address insert one row.
    const created = await db.transaction().execute(async (trx) => {
      const row = await trx
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
      if (row)
        await recordAudit(trx, actorOf(request), {
          action: 'membership.invited',
          targetType: 'membership',
          targetId: row.uuid,
          targetLabel: row.email,
          organizationId: row.organization_id,
          after: { email: row.email, roles: row.roles, status: row.status },
        });
      return row;
    });
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
    return sendDocument(reply, { data: resource ?? null, meta: { mailSent } }, 201);
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
        serialId(ref) !== undefined
          ? qb.where('id', '=', serialId(ref)!)
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
    return sendDocument(reply, { data: resource ?? null, meta: { message: M.invitationSent, mailSent } });
  });
}
