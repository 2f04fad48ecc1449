import type { Selectable, Transaction } from 'kysely';
import type { Db } from '../../db/client.ts';
import type { Database, MembershipStatus, MembershipsTable, OrganizationsTable } from '../../db/schema.ts';
import { HttpError, notFound, unauthorized } from '../../lib/errors.ts';
import type { SessionUser } from '../../plugins/session.ts';
import { verifiedAddress, type ProvenAddress } from '../identity/service.ts';
import { serialId, UUID } from '../../lib/ids.ts';

/**
 * Who may do what in an organization: the one place that decides (spec A 6). Every organization
 * and membership route, and the applications module, ask `can()` / `requireOrgPermission()`.
 *
 * - Anonymous callers get 401.
 * - Signed-in users with no membership (or an unknown organization) get 404: existence does not leak.
 * - A pending invitee may see the organization's name and answer the invitation, nothing else (403).
 * - A blocked member gets 403 for everything.
 * - Active members get the union of their roles' permissions; the creator always holds the owner
 *   role, whatever the stored roles say.
 */
export const PERMISSIONS = [
  'view group',
  'edit group',
  'delete group',
  /** Invite, resend and cancel invitations, remove members. */
  'administer members',
  /** Change the roles of a member (spec: "an edit-member permission"). */
  'edit member roles',
  /** See the member list. */
  'view members',
  /** Upload and remove organization documents (spec: "a document permission"). */
  'upload documents',
  'view group_node:application entity',
  'create group_node:application content',
  'create group_node:application entity',
  'update any group_node:application entity',
  'delete any group_node:application content',
  'delete any group_node:application entity',
  /** Usage analytics of the organization's production applications. */
  'view consumption',
] as const;
export type Permission = (typeof PERMISSIONS)[number];

export const ROLE_IDS = [
  'organization-admin',
  'organization-developer',
  'organization-financial',
  'organization-le',
] as const;
export type RoleId = (typeof ROLE_IDS)[number];
export const OWNER_ROLE: RoleId = 'organization-admin';

export function isRoleId(value: string): value is RoleId {
  return (ROLE_IDS as readonly string[]).includes(value);
}

const VIEW: Permission[] = ['view group', 'view members', 'view group_node:application entity'];

/** The live permission table; the migration seeded organization_roles.permissions with the same. */
export const ROLE_PERMISSIONS: Record<RoleId, readonly Permission[]> = {
  'organization-admin': PERMISSIONS,
  'organization-developer': [
    ...VIEW,
    'upload documents',
    'create group_node:application content',
    'create group_node:application entity',
    'update any group_node:application entity',
    'view consumption',
  ],
  'organization-financial': [...VIEW, 'view consumption'],
  'organization-le': [...VIEW, 'upload documents'],
};

export type OrganizationRow = Selectable<OrganizationsTable>;
export type MembershipRow = Selectable<MembershipsTable>;

/** What the caller is to one organization. */
export interface OrgAccess {
  user: SessionUser;
  org: OrganizationRow;
  /** The caller's membership (active, pending or blocked). */
  membership: MembershipRow;
  isCreator: boolean;
  /** Effective roles: the stored ones, plus the owner role for the creator. */
  roles: RoleId[];
  /** Empty unless the membership is active. */
  permissions: ReadonlySet<Permission>;
}

/** The permissions a set of roles grants to an active member. */
export function permissionsFor(roles: readonly string[], isCreator: boolean): Set<Permission> {
  const granted = new Set<Permission>();
  const effective = isCreator ? [...roles, OWNER_ROLE] : roles;
  for (const role of effective) {
    if (!isRoleId(role)) continue;
    for (const p of ROLE_PERMISSIONS[role]) granted.add(p);
  }
  return granted;
}

export function effectiveRoles(roles: readonly string[], isCreator: boolean): RoleId[] {
  const set = new Set(roles.filter(isRoleId));
  if (isCreator) set.add(OWNER_ROLE);
  return ROLE_IDS.filter((r) => set.has(r));
}

type Executor = Db | Transaction<Database>;

/**
 * The caller's membership of an organization: by user id, or by the caller's proven address for an
 * invitation not linked to the account yet (linkInvitations links them when the address is proven
 * or the invitation sent; this only reads, so a GET never writes).
 */
export async function findMembership(
  db: Executor,
  user: SessionUser,
  orgId: number,
): Promise<MembershipRow | undefined> {
  // Only a proven address finds what was sent to it (else whoever signs up first with an address
  // would take its invitations).
  const address = verifiedAddress(user);
  const row = await db
    .selectFrom('memberships')
    .selectAll()
    .where('organization_id', '=', orgId)
    .where((eb) =>
      eb.or([
        eb('user_id', '=', user.id),
        ...(address
          ? [eb.and([eb('user_id', 'is', null), eb(eb.fn('lower', ['email']), '=', address.toLowerCase())])]
          : []),
      ]),
    )
    .orderBy('user_id', 'asc')
    .executeTakeFirst();
  // An invitation to the caller's proven address is theirs all the same (accepting links it).
  return row && row.user_id === null ? { ...row, user_id: user.id } : row;
}

/**
 * Links every invitation sent to an address to the account that has just proven it (identity's
 * `onAddressProven`, in the transaction that proves it: the verification link, a password reset,
 * an account created with a proven address). Invitations sent afterwards are linked when they are
 * created (membership-routes.ts). Only ever called with a proven address: nothing is linked to an
 * unverified one.
 */
export async function linkInvitations(db: Executor, user: ProvenAddress): Promise<void> {
  const address = user.email;
  await db
    .updateTable('memberships')
    .set({ user_id: user.id })
    .where('user_id', 'is', null)
    .where((eb) => eb(eb.fn('lower', ['email']), '=', address.toLowerCase()))
    // An address already linked to another membership row of the same organization keeps its row.
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('memberships as m2')
            .select('m2.id')
            .whereRef('m2.organization_id', '=', 'memberships.organization_id')
            .where('m2.user_id', '=', user.id),
        ),
      ),
    )
    .execute();
}

/** Resolves an organization by uuid or by its numeric id (the spec's gid may be either). */
export async function findOrganization(
  db: Executor,
  ref: string | number,
): Promise<OrganizationRow | undefined> {
  const s = String(ref).trim();
  const id = serialId(s);
  if (id !== undefined) {
    return db.selectFrom('organizations').selectAll().where('id', '=', id).executeTakeFirst();
  }
  if (!UUID.test(s)) return undefined;
  return db.selectFrom('organizations').selectAll().where('uuid', '=', s.toLowerCase()).executeTakeFirst();
}

/** The caller's access to an organization; 401 anonymous, 404 unknown organization or non-member. */
export async function loadOrgAccess(
  db: Executor,
  user: SessionUser | null,
  orgRef: string | number | OrganizationRow,
): Promise<OrgAccess> {
  if (!user) throw unauthorized();
  const org = typeof orgRef === 'object' ? orgRef : await findOrganization(db, orgRef);
  if (!org) throw notFound();
  const membership = await findMembership(db, user, org.id);
  if (!membership) throw notFound();
  const isCreator = org.creator_id !== null && org.creator_id === user.id;
  return {
    user,
    org,
    membership,
    isCreator,
    roles: effectiveRoles(membership.roles, isCreator),
    permissions:
      membership.status === 'active' ? permissionsFor(membership.roles, isCreator) : new Set<Permission>(),
  };
}

/** Whether the caller may do `permission` in the organization. */
export function can(access: OrgAccess, permission: Permission): boolean {
  return (
    decide({ signedIn: true, membership: access.membership, isCreator: access.isCreator }, permission) ===
    'allow'
  );
}

/** Who asks, as far as the decision goes. */
export interface Actor {
  signedIn: boolean;
  /** The caller's membership of the organization; null for non-members and unknown organizations. */
  membership: { status: MembershipStatus; roles: readonly string[] } | null;
  isCreator: boolean;
}

/** The decision for one actor and permission: allowed, or the status of the refusal. */
export function decide(actor: Actor, permission: Permission): 'allow' | 401 | 403 | 404 {
  if (!actor.signedIn) return 401;
  if (!actor.membership) return 404;
  if (actor.membership.status !== 'active') return 403;
  return permissionsFor(actor.membership.roles, actor.isCreator).has(permission) ? 'allow' : 403;
}

export const AUTHZ_MESSAGES = {
  forbidden: 'You are not allowed to do this in this organization.',
  pending: 'Accept the invitation to this organization first.',
  blocked: 'Your membership of this organization is blocked.',
} as const;

/** Throws the refusal for a caller that lacks the permission (403: they are a member). */
export function assertCan(access: OrgAccess, permission: Permission): void {
  if (can(access, permission)) return;
  const message =
    access.membership.status === 'pending_invitation'
      ? AUTHZ_MESSAGES.pending
      : access.membership.status === 'blocked'
        ? AUTHZ_MESSAGES.blocked
        : AUTHZ_MESSAGES.forbidden;
  throw new HttpError(403, message);
}

/**
 * The helper for other modules (applications): loads the caller's access to the organization
 * named by uuid (or numeric id) and checks one permission. 401 / 404 / 403 as above.
 */
export async function requireOrgPermission(
  db: Executor,
  user: SessionUser | null,
  orgUuid: string,
  permission: Permission,
): Promise<OrgAccess> {
  const access = await loadOrgAccess(db, user, orgUuid);
  assertCan(access, permission);
  return access;
}

/**
 * Checks run before an organization is deleted, inside the deleting transaction. A guard returns
 * a refusal message to stop the deletion, or null. The applications module pushes one that refuses
 * while an application of the organization is in PRODUCTION.
 */
export type OrganizationDeleteGuard = (
  trx: Transaction<Database>,
  org: OrganizationRow,
) => Promise<string | null>;
export const organizationDeleteGuards: OrganizationDeleteGuard[] = [];
