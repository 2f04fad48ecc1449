import { en } from '@portico/contracts/messages';
import { ClientInputError, oauthClientsRepo, type ClientGrantType } from '../../authz-server/clients.ts';
import type { Db } from '../../db/client.ts';
import { HttpError } from '../../lib/errors.ts';
import type { SecretBox } from '../../lib/secret-box.ts';
import { appDb, type ApplicationRow, type Environment, type ProductRow } from './tables.ts';
import { serialId, UUID } from '../../lib/ids.ts';
import { ApiErrors, type ErrorEntry } from '../../jsonapi/errors.ts';
import { productScopes } from '../catalog/service.ts';
// What the certificates module needs of applications: an application and its access check, the
// request body's checks, the PSD2 roles an application holds, the applications' tables.
export { requireApplication } from './access.ts';
export { issuesToErrors, objectBody } from './forms.ts';
export { heldRoles, subscriptionRefusal } from './psd2-roles.ts';
export { appDb } from './tables.ts';
// The console dashboard's figures of this domain (issue 27).
export {
  activeOrganizations,
  applicationsPerEnvironment,
  callsPerApiPerDay,
  goLiveWaiting,
} from './dashboard-figures.ts';

/**
 * Application writes. Each function takes a database handle that is usually a transaction, so an
 * application, its subscriptions and its OAuth clients change together.
 */
const M = en.applications;

export interface ApplicationFields {
  title: string;
  /** Sanitized HTML. */
  description: string;
  grantTypes: ClientGrantType[];
  redirectUris: string[];
  postLogoutRedirectUris: string[];
}

/** Where each field's errors point in the request that carried it. */
export interface FieldPointers {
  grantTypes: string;
  redirectUris: string;
  postLogoutRedirectUris: string;
}

/**
 * The authorization server's own client rules, checked first so that the caller gets a field
 * error instead of a failed client write: the code grant needs a redirect URI, no URI may carry
 * a fragment.
 */
export function checkClientRules(fields: ApplicationFields, pointers: FieldPointers): void {
  const errors: ErrorEntry[] = [];
  if (fields.grantTypes.includes('authorization_code') && !fields.redirectUris.length)
    errors.push({ title: M.redirectUriRequired, pointer: pointers.redirectUris });
  if (fields.redirectUris.some((u) => u.includes('#')))
    errors.push({ title: M.redirectUriFragment, pointer: pointers.redirectUris });
  if (fields.postLogoutRedirectUris.some((u) => u.includes('#')))
    errors.push({ title: M.redirectUriFragment, pointer: pointers.postLogoutRedirectUris });
  if (errors.length) throw new ApiErrors(422, errors);
}

/** A client write the pre-check did not foresee is still the caller's input: 422, never 500. */
async function clientWrite<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (err instanceof ClientInputError) throw new HttpError(422, err.message);
    throw err;
  }
}

export async function createApplication(
  db: Db,
  box: SecretBox,
  input: ApplicationFields & {
    organizationId: number;
    createdBy: number | null;
    productIds: number[];
    /** The client id and secret already issued (dynamic client registration, registration.ts). */
    issued?: { clientId: string; secret: string | null };
  },
): Promise<ApplicationRow> {
  const row = await appDb(db)
    .insertInto('applications')
    .values({
      organization_id: input.organizationId,
      title: input.title,
      description: input.description,
      grant_types: input.grantTypes,
      redirect_uris: input.redirectUris,
      post_logout_redirect_uris: input.postLogoutRedirectUris,
      created_by: input.createdBy,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  await clientWrite(() =>
    oauthClientsRepo(db, box).createClient({
      applicationUuid: row.uuid,
      environment: 'DEVELOPMENT',
      grantTypes: input.grantTypes,
      redirectUris: input.redirectUris,
      postLogoutRedirectUris: input.postLogoutRedirectUris,
      ...(input.issued ? { issued: input.issued } : {}),
    }),
  );
  if (input.productIds.length) await replaceSubscriptions(db, row, input.productIds);
  return row;
}

/** Changes the application and copies grant types and URIs to every client it has. */
export async function updateApplication(
  db: Db,
  box: SecretBox,
  app: ApplicationRow,
  fields: ApplicationFields,
): Promise<ApplicationRow> {
  const row = await appDb(db)
    .updateTable('applications')
    .set({
      title: fields.title,
      description: fields.description,
      grant_types: fields.grantTypes,
      redirect_uris: fields.redirectUris,
      post_logout_redirect_uris: fields.postLogoutRedirectUris,
      changed: new Date(),
    })
    .where('id', '=', app.id)
    .returningAll()
    .executeTakeFirstOrThrow();
  const repo = oauthClientsRepo(db, box);
  for (const client of await repo.findByApplication(app.uuid)) {
    await clientWrite(() =>
      repo.updateClient(client.clientId, {
        grantTypes: fields.grantTypes,
        redirectUris: fields.redirectUris,
        postLogoutRedirectUris: fields.postLogoutRedirectUris,
      }),
    );
  }
  return row;
}

/** Deletes the application, its subscriptions and every OAuth client with its tokens. */
export async function deleteApplication(db: Db, box: SecretBox, app: ApplicationRow): Promise<string[]> {
  const repo = oauthClientsRepo(db, box);
  const clients = await repo.findByApplication(app.uuid);
  for (const client of clients) await repo.deleteClient(client.clientId);
  await appDb(db).deleteFrom('applications').where('id', '=', app.id).execute();
  return clients.map((c) => c.clientId);
}

/** Products by uuid or numeric id, in the order given; unknown ones are a 404 naming the product. */
export async function resolveProducts(db: Db, refs: readonly string[]): Promise<ProductRow[]> {
  const ids = refs.map((r) => serialId(r)).filter((id) => id !== undefined);
  const uuids = refs.filter((r) => UUID.test(r)).map((r) => r.toLowerCase());
  const rows =
    ids.length || uuids.length
      ? await appDb(db)
          .selectFrom('api_products')
          .selectAll()
          .where((eb) =>
            eb.or([
              ...(ids.length ? [eb('id', 'in', ids)] : []),
              ...(uuids.length ? [eb('uuid', 'in', uuids)] : []),
            ]),
          )
          .execute()
      : [];
  return refs.map((ref) => {
    const found = rows.find((p) => p.uuid === ref.toLowerCase() || String(p.id) === ref);
    if (!found) throw new HttpError(404, M.unknownProduct, { code: 'unknown_product' });
    return found;
  });
}

/** Retired, deprecated and commercial products are not offered for subscription (spec A 2, 9). */
export function assertSubscribable(product: ProductRow, pointer?: string): void {
  // A retired product (the console, catalog README 'Console: API products') takes none either.
  if (product.retired)
    throw new ApiErrors(422, [{ title: M.productRetired, ...(pointer ? { pointer } : {}) }]);
  if (product.deprecated)
    throw new ApiErrors(422, [{ title: M.productDeprecated, ...(pointer ? { pointer } : {}) }]);
  if (product.commercial)
    throw new ApiErrors(422, [{ title: M.productCommercial, ...(pointer ? { pointer } : {}) }]);
}

/** Numeric ids of the products the application is subscribed to. */
export async function subscribedProductIds(db: Db, applicationId: number): Promise<number[]> {
  const rows = await appDb(db)
    .selectFrom('subscriptions')
    .select('product_id')
    .where('application_id', '=', applicationId)
    .execute();
  return rows.map((r) => r.product_id);
}

/** Makes the subscriptions exactly these products; returns whether anything changed. */
export async function replaceSubscriptions(
  db: Db,
  app: ApplicationRow,
  productIds: number[],
): Promise<boolean> {
  const wanted = new Set(productIds);
  const current = new Set(await subscribedProductIds(db, app.id));
  const add = [...wanted].filter((id) => !current.has(id));
  const remove = [...current].filter((id) => !wanted.has(id));
  const adb = appDb(db);
  if (remove.length)
    await adb
      .deleteFrom('subscriptions')
      .where('application_id', '=', app.id)
      .where('product_id', 'in', remove)
      .execute();
  if (add.length)
    await adb
      .insertInto('subscriptions')
      .values(add.map((product_id) => ({ application_id: app.id, product_id })))
      .onConflict((oc) => oc.doNothing())
      .execute();
  return add.length > 0 || remove.length > 0;
}

export async function subscribe(db: Db, app: ApplicationRow, product: ProductRow): Promise<boolean> {
  const inserted = await appDb(db)
    .insertInto('subscriptions')
    .values({ application_id: app.id, product_id: product.id })
    .onConflict((oc) => oc.doNothing())
    .returning('product_id')
    .execute();
  return inserted.length > 0;
}

export async function unsubscribe(db: Db, app: ApplicationRow, product: ProductRow): Promise<boolean> {
  const deleted = await appDb(db)
    .deleteFrom('subscriptions')
    .where('application_id', '=', app.id)
    .where('product_id', '=', product.id)
    .returning('product_id')
    .execute();
  return deleted.length > 0;
}

/** The client id of the application's client in one environment. */
export async function clientIdOf(
  db: Db,
  appUuid: string,
  environment: Environment,
): Promise<string | undefined> {
  const row = await db
    .selectFrom('oauth_clients')
    .select('client_id')
    .where('application_uuid', '=', appUuid)
    .where('environment', '=', environment)
    .executeTakeFirst();
  return row?.client_id;
}

/** Marks whether the secret of an environment was deleted (shown as null until a reset). */
export async function setSecretDeleted(
  db: Db,
  app: ApplicationRow,
  environment: Environment,
  deleted: boolean,
) {
  await appDb(db)
    .updateTable('applications')
    .set(
      environment === 'PRODUCTION'
        ? { production_secret_deleted: deleted, changed: new Date() }
        : { development_secret_deleted: deleted, changed: new Date() },
    )
    .where('id', '=', app.id)
    .execute();
}

/**
 * The scopes of the products the application is subscribed to, for one environment: the scope
 * resolver of the authorization server (the catalog owns how a product's scopes are read).
 */
export async function subscribedScopes(
  db: Db,
  applicationUuid: string,
  environment: Environment,
): Promise<string[]> {
  const rows = await appDb(db)
    .selectFrom('subscriptions as s')
    .innerJoin('applications as a', 'a.id', 's.application_id')
    .select('s.product_id')
    .where('a.uuid', '=', applicationUuid)
    .execute();
  return productScopes(
    db,
    rows.map((r) => r.product_id),
    environment,
  );
}

/** The gateway's and token endpoint's refusal of a blocked creator's application (issue 27). */
export const CREATOR_BLOCKED =
  'the account that created this application is blocked: its credentials and tokens are refused';

/**
 * The client gate of the authorization server (issue 27, decision 045): an application whose
 * creator an administrator blocked gets no tokens and its tokens and keys are refused. Other
 * members' applications of the same organizations keep working: they are not the blocked
 * account's doing.
 */
export async function creatorBlocked(db: Db, applicationUuid: string): Promise<string | null> {
  if (!UUID.test(applicationUuid)) return null;
  const row = await appDb(db)
    .selectFrom('applications as a')
    .innerJoin('users as u', 'u.id', 'a.created_by')
    .select('u.blocked_at')
    .where('a.uuid', '=', applicationUuid)
    .executeTakeFirst();
  return row?.blocked_at ? CREATOR_BLOCKED : null;
}

/** An application as the console's user page lists it. */
export interface UserApplication {
  uuid: string;
  title: string;
  status: Environment;
  organizationUuid: string;
  organizationTitle: string;
  /** The account created it (its clients are refused while the account is blocked). */
  createdByUser: boolean;
}

/**
 * The applications of a user (the console's user page, issue 27): those of the organizations it
 * is an active member of, and those it created (in any organization), newest first.
 */
export async function applicationsOfUser(db: Db, userId: number): Promise<UserApplication[]> {
  const rows = await appDb(db)
    .selectFrom('applications as a')
    .innerJoin('organizations as o', 'o.id', 'a.organization_id')
    .select(['a.uuid', 'a.title', 'a.status', 'a.created_by', 'o.uuid as org_uuid', 'o.title as org_title'])
    .where((eb) =>
      eb.or([
        eb('a.created_by', '=', userId),
        eb(
          'a.organization_id',
          'in',
          eb
            .selectFrom('memberships as m')
            .select('m.organization_id')
            .where('m.user_id', '=', userId)
            .where('m.status', '=', 'active'),
        ),
      ]),
    )
    .orderBy('a.created', 'desc')
    .orderBy('a.id', 'desc')
    .execute();
  return rows.map((r) => ({
    uuid: r.uuid,
    title: r.title,
    status: r.status,
    organizationUuid: r.org_uuid,
    organizationTitle: r.org_title,
    createdByUser: r.created_by === userId,
  }));
}
