import { en } from '@portico/contracts/messages';
import type { Db } from '../../db/client.ts';
import type { ApplicationTables, ApplicationRow, Environment } from './tables.ts';
import { ApiErrors } from '../../jsonapi/errors.ts';
import { productScopes, splitScopes } from '../catalog/service.ts';
import type { CertificateTables } from '../certificates/service.ts';

/**
 * PSD2 roles limit an application (issue 28): an application linked to one of its organization's
 * certificates (`applications.psd2_certificate_id`) may subscribe only to products whose required
 * roles (`api_products.psd2_roles`) the certificate holds, all of them, and its tokens carry only
 * those products' scopes. A revoked or expired certificate holds no role. An application without a
 * certificate is not limited (as before issue 28).
 */
const M = en.certificates;

const fill = (template: string, values: Record<string, string>) =>
  template.replace(/\{\{(\w+)\}\}/g, (m, key: string) => values[key] ?? m);

const rolesDb = (db: Db) => db.withTables<ApplicationTables & CertificateTables>();

export interface HeldRoles {
  /** The roles that count now: none when the certificate is revoked or expired. */
  roles: string[];
  state: 'active' | 'revoked' | 'expired';
}

/** The roles the application's certificate holds, or null when it has no certificate. */
export async function heldRoles(db: Db, application: { id: number } | { uuid: string }, now = new Date()) {
  let query = rolesDb(db)
    .selectFrom('applications as a')
    .innerJoin('organization_certificates as c', 'c.id', 'a.psd2_certificate_id')
    .select(['c.roles', 'c.revoked_at', 'c.not_after']);
  query =
    'id' in application
      ? query.where('a.id', '=', application.id)
      : query.where('a.uuid', '=', application.uuid);
  const row = await query.executeTakeFirst();
  if (!row) return null;
  const state: HeldRoles['state'] = row.revoked_at
    ? 'revoked'
    : new Date(row.not_after) < now
      ? 'expired'
      : 'active';
  return { roles: state === 'active' ? row.roles : [], state } satisfies HeldRoles;
}

/** The required roles the holder lacks. */
export function missingRoles(required: readonly string[], held: HeldRoles): string[] {
  return required.filter((r) => !held.roles.includes(r));
}

function heldText(held: HeldRoles): string {
  if (held.state === 'revoked') return M.revokedHolds;
  if (held.state === 'expired') return M.expiredHolds;
  return held.roles.length ? held.roles.join(', ') : M.noRole;
}

/** Why the application may not subscribe to the product, or null. */
export function subscriptionRefusal(
  product: { title: string; psd2_roles: readonly string[] },
  held: HeldRoles | null,
): string | null {
  if (!held || !product.psd2_roles.length) return null;
  const missing = missingRoles(product.psd2_roles, held);
  if (!missing.length) return null;
  return fill(missing.length === 1 ? M.productNeedsRole : M.productNeedsRoles, {
    product: product.title,
    needed: missing.join(', '),
    held: heldText(held),
  });
}

/** Refuses (422, `psd2_role_missing`) a subscription the application's certificate does not allow. */
export async function assertRolesAllow(
  db: Db,
  app: Pick<ApplicationRow, 'id'>,
  products: readonly { title: string; psd2_roles: readonly string[] }[],
  pointer: string,
): Promise<void> {
  if (!products.some((p) => p.psd2_roles.length)) return;
  const held = await heldRoles(db, { id: app.id });
  const refusals = products.map((p) => subscriptionRefusal(p, held)).filter((r): r is string => r !== null);
  if (refusals.length)
    throw new ApiErrors(
      422,
      refusals.map((title) => ({ title, code: 'psd2_role_missing', pointer })),
    );
}

async function subscribedProducts(db: Db, applicationUuid: string) {
  return rolesDb(db)
    .selectFrom('subscriptions as s')
    .innerJoin('applications as a', 'a.id', 's.application_id')
    .innerJoin('api_products as p', 'p.id', 's.product_id')
    .select(['p.id', 'p.title', 'p.psd2_roles', 'p.scope', 'p.scope_production'])
    .where('a.uuid', '=', applicationUuid)
    .execute();
}

/**
 * The scope resolver of the applications module: the scopes of the subscribed products, less the
 * products whose roles the application's certificate does not hold (all of them without one).
 */
export async function roleLimitedScopes(
  db: Db,
  applicationUuid: string,
  environment: Environment,
): Promise<string[]> {
  const products = await subscribedProducts(db, applicationUuid);
  if (!products.length) return [];
  const held = await heldRoles(db, { uuid: applicationUuid });
  const allowed = products.filter((p) => subscriptionRefusal(p, held) === null);
  return productScopes(
    db,
    allowed.map((p) => p.id),
    environment,
  );
}

/**
 * The `invalid_scope` description for a scope the application asked for and may not have because
 * of its certificate's roles (a product of the catalog with that scope needs a role the certificate
 * lacks; the subscribed products first), or null when the roles are not the reason.
 */
export async function scopeRefusal(
  db: Db,
  applicationUuid: string,
  environment: Environment,
  scope: string,
): Promise<string | null> {
  const held = await heldRoles(db, { uuid: applicationUuid });
  if (!held) return null;
  const subscribed = await subscribedProducts(db, applicationUuid);
  const others = await rolesDb(db)
    .selectFrom('api_products as p')
    .select(['p.id', 'p.title', 'p.psd2_roles', 'p.scope', 'p.scope_production'])
    .where('p.retired', '=', false)
    .orderBy('p.weight')
    .orderBy('p.title')
    .execute();
  for (const p of [...subscribed, ...others]) {
    const scopes = splitScopes(environment === 'PRODUCTION' ? p.scope_production : p.scope);
    if (!scopes.includes(scope)) continue;
    const missing = missingRoles(p.psd2_roles, held);
    if (missing.length)
      return fill(M.scopeNeedsRole, {
        scope,
        product: p.title,
        needed: missing.join(', '),
        held: heldText(held),
      });
  }
  return null;
}
