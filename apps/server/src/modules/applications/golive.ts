import {
  getClientAuthentication,
  setApplicationClientAuthentication,
} from '../../authz-server/client-auth.ts';
import type { GoLiveForm } from '@portico/contracts/applications';
import { en } from '@portico/contracts/messages';
import { sql } from 'kysely';
import { oauthClientsRepo, type ClientGrantType } from '../../authz-server/clients.ts';
import type { Db } from '../../db/client.ts';
import { HttpError, notFound } from '../../lib/errors.ts';
import type { SecretBox } from '../../lib/secret-box.ts';
import { appDb, type ApplicationRow, type GoLiveRequestRow } from './tables.ts';
import { serialId, UUID } from '../../lib/ids.ts';
import { ApiErrors } from '../../jsonapi/errors.ts';

/**
 * The go-live request and the provider's decision, each in the caller's transaction:
 * submit → PRODUCTION / pending; approve → production client, approved; reject → DEVELOPMENT,
 * rejected with a reason. Who decided and when is recorded on the request.
 */
const M = en.applications;

async function lockApplication(db: Db, id: number): Promise<ApplicationRow | undefined> {
  return appDb(db).selectFrom('applications').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
}

export async function submitGoLive(
  db: Db,
  applicationId: number,
  input: { form: GoLiveForm; title: string | undefined; userId: number },
): Promise<{ request: GoLiveRequestRow; app: ApplicationRow }> {
  const app = await lockApplication(db, applicationId);
  if (!app) throw notFound();
  if (app.status === 'PRODUCTION')
    throw new HttpError(409, app.golive_status === 'pending' ? M.goLivePending : M.alreadyProduction, {
      code: 'golive_conflict',
    });
  // Checked again under the lock: an unsubscription waits for it too.
  const subscribed = await appDb(db)
    .selectFrom('subscriptions')
    .select('product_id')
    .where('application_id', '=', app.id)
    .executeTakeFirst();
  if (!subscribed)
    throw new ApiErrors(422, [{ title: M.noSubscription, pointer: '/data/relationships/field_application' }]);
  const { form } = input;
  const request = await appDb(db)
    .insertInto('go_live_requests')
    .values({
      application_id: app.id,
      organization_id: app.organization_id,
      application_title: app.title,
      title: input.title ?? `${app.title} ${Math.floor(Date.now() / 1000)}`,
      developer_type: form.developerType,
      first_name: form.firstName,
      last_name: form.lastName,
      company_name: form.companyName,
      address: form.address,
      email: form.email,
      site_url: form.siteUrl,
      use_cases: form.useCases,
      created_by: input.userId,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  const updated = await appDb(db)
    .updateTable('applications')
    .set({ status: 'PRODUCTION', golive_status: 'pending', golive_reason: null, changed: new Date() })
    .where('id', '=', app.id)
    .returningAll()
    .executeTakeFirstOrThrow();
  return { request, app: updated };
}

/** A go-live request by uuid or numeric id. */
export async function findRequest(db: Db, ref: string, lock = false): Promise<GoLiveRequestRow | undefined> {
  const s = ref.trim();
  let q = appDb(db).selectFrom('go_live_requests').selectAll();
  const id = serialId(s);
  if (id !== undefined) q = q.where('id', '=', id);
  else if (UUID.test(s)) q = q.where('uuid', '=', s.toLowerCase());
  else return undefined;
  return (lock ? q.forUpdate() : q).executeTakeFirst();
}

async function pendingRequest(db: Db, ref: string): Promise<GoLiveRequestRow> {
  const request = await findRequest(db, ref, true);
  if (!request) throw notFound();
  if (request.status !== 'pending') throw new HttpError(409, M.reviewDecided, { code: 'already_decided' });
  return request;
}

async function decide(
  db: Db,
  request: GoLiveRequestRow,
  status: 'approved' | 'rejected',
  adminId: number,
  reason: string | null,
) {
  return appDb(db)
    .updateTable('go_live_requests')
    .set({ status, reason, decided_by: adminId, decided_at: sql<Date>`now()` })
    .where('id', '=', request.id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function approveGoLive(
  db: Db,
  box: SecretBox,
  ref: string,
  adminId: number,
): Promise<{ request: GoLiveRequestRow; app: ApplicationRow; clientId: string }> {
  const request = await pendingRequest(db, ref);
  const app = request.application_id === null ? undefined : await lockApplication(db, request.application_id);
  if (!app) throw new HttpError(409, M.reviewApplicationGone, { code: 'application_gone' });
  const repo = oauthClientsRepo(db, box);
  const existing = (await repo.findByApplication(app.uuid)).find((c) => c.environment === 'PRODUCTION');
  const clientId =
    existing?.clientId ??
    (
      await repo.createClient({
        applicationUuid: app.uuid,
        environment: 'PRODUCTION',
        grantTypes: app.grant_types as ClientGrantType[],
        redirectUris: app.redirect_uris,
        postLogoutRedirectUris: app.post_logout_redirect_uris,
      })
    ).clientId;
  // The production client authenticates as the development one does (issue 28, decision 049).
  const development = (await repo.findByApplication(app.uuid)).find((c) => c.environment === 'DEVELOPMENT');
  if (!existing && development)
    await setApplicationClientAuthentication(
      db,
      app.uuid,
      await getClientAuthentication(db, development.clientId),
    );
  const updated = await appDb(db)
    .updateTable('applications')
    .set({
      status: 'PRODUCTION',
      golive_status: 'approved',
      golive_reason: null,
      production_secret_deleted: false,
      changed: new Date(),
    })
    .where('id', '=', app.id)
    .returningAll()
    .executeTakeFirstOrThrow();
  return { request: await decide(db, request, 'approved', adminId, null), app: updated, clientId };
}

export async function rejectGoLive(
  db: Db,
  ref: string,
  adminId: number,
  reason: string,
): Promise<{ request: GoLiveRequestRow; app: ApplicationRow | undefined }> {
  const request = await pendingRequest(db, ref);
  const app = request.application_id === null ? undefined : await lockApplication(db, request.application_id);
  const updated = app
    ? await appDb(db)
        .updateTable('applications')
        .set({ status: 'DEVELOPMENT', golive_status: 'rejected', golive_reason: reason, changed: new Date() })
        .where('id', '=', app.id)
        .returningAll()
        .executeTakeFirstOrThrow()
    : undefined;
  return { request: await decide(db, request, 'rejected', adminId, reason), app: updated };
}

/** E-mail addresses of the organization's active owners (the creator always is one). */
export async function ownerEmails(db: Db, organizationId: number): Promise<string[]> {
  const rows = await db
    .selectFrom('memberships as m')
    .innerJoin('organizations as o', 'o.id', 'm.organization_id')
    .leftJoin('users as u', 'u.id', 'm.user_id')
    .select(['m.email', 'u.email as user_email'])
    .where('m.organization_id', '=', organizationId)
    .where('m.status', '=', 'active')
    .where((eb) =>
      eb.or([
        eb(sql.lit('organization-admin'), '=', eb.fn.any('m.roles')),
        eb('m.user_id', '=', eb.ref('o.creator_id')),
      ]),
    )
    .execute();
  return [...new Set(rows.map((r) => (r.user_email ?? r.email).toLowerCase()))].sort();
}
