import type { Db } from '../../db/client.ts';
import { notFound, unauthorized } from '../../lib/errors.ts';
import type { SessionUser } from '../../plugins/session.ts';
import { appDb, type ApplicationRow } from './tables.ts';
import { serialId, UUID } from '../../lib/ids.ts';
import { assertCan, can, loadOrgAccess, type OrgAccess, type Permission } from '../organizations/service.ts';

/**
 * Who may do what with applications (spec A 6), decided by the organizations module's roles:
 * each action needs one of its permissions in the application's organization.
 */
export const ACTIONS = {
  view: ['view group_node:application entity'],
  create: ['create group_node:application entity', 'create group_node:application content'],
  update: ['update any group_node:application entity'],
  delete: ['delete any group_node:application entity', 'delete any group_node:application content'],
  goLive: ['create group_node:application entity'],
  viewSecret: ['update any group_node:application entity'],
  analytics: ['view consumption'],
} as const satisfies Record<string, readonly Permission[]>;
export type Action = keyof typeof ACTIONS;

export function allowed(access: OrgAccess, action: Action): boolean {
  return ACTIONS[action].some((p) => can(access, p));
}

/** Throws the organizations module's refusal (403 with its message) unless the action is allowed. */
export function assertAllowed(access: OrgAccess, action: Action): void {
  if (!allowed(access, action)) assertCan(access, ACTIONS[action][0]);
}

/** The caller's rights on the applications of an organization, for `permissions` in responses. */
export function rightsOf(access: OrgAccess) {
  return {
    update: allowed(access, 'update'),
    delete: allowed(access, 'delete'),
    goLive: allowed(access, 'goLive'),
    viewSecret: allowed(access, 'viewSecret'),
    viewAnalytics: allowed(access, 'analytics'),
  };
}

/** An application by uuid or numeric nid. */
export async function findApplication(db: Db, ref: string | number): Promise<ApplicationRow | undefined> {
  const s = String(ref).trim();
  const q = appDb(db).selectFrom('applications').selectAll();
  const id = serialId(s);
  if (id !== undefined) return q.where('id', '=', id).executeTakeFirst();
  if (!UUID.test(s)) return undefined;
  return q.where('uuid', '=', s.toLowerCase()).executeTakeFirst();
}

export interface ApplicationAccess {
  app: ApplicationRow;
  access: OrgAccess;
}

/**
 * The application and the caller's access to its organization: 401 anonymous, 404 unknown
 * application or not a member of its organization, 403 without the action's permission.
 */
export async function requireApplication(
  db: Db,
  user: SessionUser | null,
  ref: string | number,
  action: Action,
): Promise<ApplicationAccess> {
  if (!user) throw unauthorized();
  const app = await findApplication(db, ref);
  if (!app) throw notFound();
  const access = await loadOrgAccess(db, user, app.organization_id);
  assertAllowed(access, action);
  return { app, access };
}
