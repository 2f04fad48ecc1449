import { GO_LIVE_STATUSES, goLiveRejectSchema } from '@portico/contracts/applications';
import { en } from '@portico/contracts/messages';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import { notFound, badRequest } from '../../lib/errors.ts';
import { requireProviderRole } from '../../plugins/session.ts';
import { actorOf, recordAudit } from '../audit/service.ts';
import { issuesToErrors, objectBody } from './forms.ts';
import { approveGoLive, findRequest, ownerEmails, rejectGoLive } from './golive.ts';
import { texts } from '../../lib/i18n.ts';
import { recipientLocale } from '../../lib/mailer.ts';
import { appDb, type ApplicationRow, type GoLiveRequestRow } from './tables.ts';
import { UUID } from '../../lib/ids.ts';
import { pageLinks, parsePage, rejectUnknown, single, type Query } from '../../jsonapi/legacy-query.ts';
import { ApiErrors } from '../../jsonapi/errors.ts';
import { baseUrl, sendDocument } from '../../jsonapi/document.ts';

const M = en.applications;
const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

/**
 * The provider's review of go-live requests (`/admin/go-live` in the web app): list with the
 * form, the application and the organization's documents; approve; reject with a reason.
 */
export async function reviewRoutes(app: FastifyInstance): Promise<void> {
  const db = app.db;
  const adb = appDb(db);

  /** go_live_request resources with what the reviewer needs, in a few queries. */
  async function resources(base: string, requests: GoLiveRequestRow[]) {
    if (!requests.length) return [];
    const appIds = requests.map((r) => r.application_id ?? -1);
    const orgIds = requests.map((r) => r.organization_id);
    const userIds = requests.flatMap((r) => [r.created_by ?? -1, r.decided_by ?? -1]);
    const [apps, orgs, docs, users, subs] = await Promise.all([
      adb.selectFrom('applications').selectAll().where('id', 'in', appIds).execute(),
      db.selectFrom('organizations').select(['id', 'uuid', 'title']).where('id', 'in', orgIds).execute(),
      db
        .selectFrom('files')
        .selectAll()
        .where('organization_id', 'in', orgIds)
        .where('kind', '=', 'document')
        .orderBy('id')
        .execute(),
      db.selectFrom('users').select(['id', 'uuid', 'name', 'email']).where('id', 'in', userIds).execute(),
      adb
        .selectFrom('subscriptions as s')
        .innerJoin('api_products as p', 'p.id', 's.product_id')
        .select(['s.application_id', 'p.uuid', 'p.title', 'p.version', 'p.psd2_certificate_required'])
        .where('s.application_id', 'in', appIds)
        .orderBy('p.weight')
        .orderBy('p.title')
        .execute(),
    ]);
    const clients = apps.length
      ? await db
          .selectFrom('oauth_clients')
          .select(['client_id', 'application_uuid', 'environment'])
          .where(
            'application_uuid',
            'in',
            apps.map((a) => a.uuid),
          )
          .execute()
      : [];
    const person = (id: number | null) => {
      const u = users.find((x) => x.id === id);
      return u ? { uuid: u.uuid, name: u.name, email: u.email } : null;
    };
    const appOf = (a: ApplicationRow) => ({
      uuid: a.uuid,
      nid: a.id,
      title: a.title,
      status: a.status,
      clientId: {
        development:
          clients.find((c) => c.application_uuid === a.uuid && c.environment === 'DEVELOPMENT')?.client_id ??
          null,
        production:
          clients.find((c) => c.application_uuid === a.uuid && c.environment === 'PRODUCTION')?.client_id ??
          null,
      },
      subscriptions: subs
        .filter((s) => s.application_id === a.id)
        .map((s) => ({
          uuid: s.uuid,
          title: s.title,
          version: s.version,
          psd2CertificateRequired: s.psd2_certificate_required,
        })),
    });
    return requests.map((r) => {
      const a = apps.find((x) => x.id === r.application_id);
      const o = orgs.find((x) => x.id === r.organization_id);
      return {
        type: 'go_live_request',
        id: r.uuid,
        attributes: {
          id: r.id,
          title: r.title,
          status: r.status,
          reason: r.reason,
          created: iso(r.created),
          decidedAt: iso(r.decided_at),
          form: {
            developerType: r.developer_type,
            firstName: r.first_name,
            lastName: r.last_name,
            companyName: r.company_name,
            address: r.address,
            email: r.email,
            siteUrl: r.site_url,
            useCases: r.use_cases,
          },
          applicationTitle: r.application_title,
          application: a ? appOf(a) : null,
          organization: o
            ? {
                uuid: o.uuid,
                id: o.id,
                title: o.title,
                documents: docs
                  .filter((d) => d.organization_id === o.id)
                  .map((d) => ({
                    uuid: d.uuid,
                    fileName: d.filename,
                    fileSize: d.size,
                    mime: d.mime,
                    url: `${base}/admin-api/go-live/${r.uuid}/documents/${d.uuid}`,
                    created: iso(d.created_at),
                  })),
              }
            : null,
          requestedBy: person(r.created_by),
          decidedBy: person(r.decided_by),
        },
        links: { self: { href: `${base}/admin-api/go-live/${r.uuid}` } },
      };
    });
  }

  app.get<{ Querystring: Query }>('/admin-api/go-live', async (request, reply) => {
    requireProviderRole(request, 'go_live_reviewer', M.reviewAdminOnly);
    rejectUnknown(request.query, (k) => ['status', 'page[limit]', 'page[offset]'].includes(k));
    const page = parsePage(request.query);
    const status = single(request.query, 'status');
    if (status !== undefined && !(GO_LIVE_STATUSES as readonly string[]).includes(status))
      throw badRequest(`status must be one of ${GO_LIVE_STATUSES.join(', ')}.`, 'status');
    const base = adb
      .selectFrom('go_live_requests')
      .$if(status !== undefined, (q) => q.where('status', '=', status as 'pending'));
    const { count } = await base
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .executeTakeFirstOrThrow();
    const rows = await base
      .selectAll()
      // Pending first, oldest first (a queue); then decided ones, newest first.
      .orderBy(sql`case when status = 'pending' then 0 else 1 end`)
      .orderBy(sql`case when status = 'pending' then created end`, 'asc')
      .orderBy('created', 'desc')
      .orderBy('id', 'desc')
      .limit(page.limit)
      .offset(page.offset)
      .execute();
    reply.header('Cache-Control', 'no-store');
    return sendDocument(reply, {
      data: await resources(baseUrl(request), rows),
      meta: { count: Number(count) },
      links: pageLinks(request, page, Number(count)),
    });
  });

  app.get<{ Params: { id: string } }>('/admin-api/go-live/:id', async (request, reply) => {
    requireProviderRole(request, 'go_live_reviewer', M.reviewAdminOnly);
    const row = await findRequest(db, request.params.id);
    if (!row) throw notFound();
    reply.header('Cache-Control', 'no-store');
    return sendDocument(reply, { data: (await resources(baseUrl(request), [row]))[0] });
  });

  /** A document of the request's organization (administrators are not members: no /files access). */
  app.get<{ Params: { id: string; file: string } }>(
    '/admin-api/go-live/:id/documents/:file',
    async (request, reply) => {
      requireProviderRole(request, 'go_live_reviewer', M.reviewAdminOnly);
      const row = await findRequest(db, request.params.id);
      if (!row || !UUID.test(request.params.file)) throw notFound();
      const file = await db
        .selectFrom('files')
        .selectAll()
        .where('uuid', '=', request.params.file.toLowerCase())
        .where('organization_id', '=', row.organization_id)
        .where('kind', '=', 'document')
        .executeTakeFirst();
      if (!file) throw notFound();
      const stream = await app.storage.get(file.storage_key);
      if (!stream) throw notFound();
      return reply
        .header('Content-Type', file.mime)
        .header('Content-Length', String(file.size))
        .header(
          'Content-Disposition',
          `attachment; filename="${file.filename.replace(/[^\x20-\x7e]|"/g, '_')}"; filename*=UTF-8''${encodeURIComponent(file.filename)}`,
        )
        .header('Cache-Control', 'private, no-store')
        .header('Content-Security-Policy', "default-src 'none'; sandbox")
        .send(stream);
    },
  );

  async function notifyOwners(
    request: FastifyRequest,
    organizationId: number,
    mail: { subject: 'approvedSubject' | 'rejectedSubject'; text: 'approvedText' | 'rejectedText' },
    values: Record<string, string>,
  ): Promise<number> {
    let sent = 0;
    for (const to of await ownerEmails(db, organizationId)) {
      try {
        // Each owner in their own language (preferred_langcode), else English.
        const T = texts(await recipientLocale(db, to), 'emails', 'applications');
        await app.mailer.send({ to, subject: T(mail.subject, values), text: T(mail.text, values) });
        sent++;
      } catch (err) {
        // The decision stands; the message is in the outbox as failed.
        request.log.warn({ err, organizationId }, 'go-live decision e-mail failed');
      }
    }
    return sent;
  }

  async function mailValues(appRow: ApplicationRow) {
    const org = await db
      .selectFrom('organizations')
      .select(['uuid', 'title'])
      .where('id', '=', appRow.organization_id)
      .executeTakeFirstOrThrow();
    return {
      application: appRow.title,
      organization: org.title,
      link: `${app.config.publicUrl}/application/${appRow.uuid}?organization=${org.uuid}`,
    };
  }

  app.post<{ Params: { id: string } }>('/admin-api/go-live/:id/approve', async (request, reply) => {
    const admin = requireProviderRole(request, 'go_live_reviewer', M.reviewAdminOnly);
    const result = await db.transaction().execute(async (trx) => {
      const approved = await approveGoLive(trx, app.secretBox, request.params.id, admin.id);
      await recordAudit(trx, actorOf(request), {
        action: 'go_live.approved',
        targetType: 'application',
        targetId: approved.app.uuid,
        targetLabel: approved.app.title,
        organizationId: approved.app.organization_id,
        before: { goLiveStatus: 'pending' },
        after: { goLiveStatus: 'approved', status: approved.app.status, request: approved.request.uuid },
      });
      return approved;
    });
    app.oauthClients.clearAccessCache(result.clientId);
    request.log.info(
      { goLiveRequestId: result.request.id, applicationId: result.app.id },
      'go-live approved',
    );
    const values = { ...(await mailValues(result.app)), clientId: result.clientId };
    const mailed = await notifyOwners(
      request,
      result.app.organization_id,
      { subject: 'approvedSubject', text: 'approvedText' },
      values,
    );
    return sendDocument(reply, {
      data: (await resources(baseUrl(request), [result.request]))[0],
      meta: { mailed },
    });
  });

  app.post<{ Params: { id: string } }>('/admin-api/go-live/:id/reject', async (request, reply) => {
    const admin = requireProviderRole(request, 'go_live_reviewer', M.reviewAdminOnly);
    const parsed = goLiveRejectSchema.safeParse(objectBody(request.body ?? {}), { reportInput: true });
    if (!parsed.success) throw new ApiErrors(422, issuesToErrors(parsed.error.issues, ''));
    const { reason } = parsed.data;
    const result = await db.transaction().execute(async (trx) => {
      const rejected = await rejectGoLive(trx, request.params.id, admin.id, reason);
      await recordAudit(trx, actorOf(request), {
        action: 'go_live.rejected',
        targetType: 'application',
        targetId: rejected.app?.uuid ?? null,
        targetLabel: rejected.request.application_title,
        organizationId: rejected.request.organization_id,
        before: { goLiveStatus: 'pending' },
        after: {
          goLiveStatus: 'rejected',
          reason,
          status: rejected.app?.status ?? null,
          request: rejected.request.uuid,
        },
      });
      return rejected;
    });
    request.log.info({ goLiveRequestId: result.request.id }, 'go-live rejected');
    let mailed = 0;
    if (result.app) {
      const values = { ...(await mailValues(result.app)), reason };
      mailed = await notifyOwners(
        request,
        result.app.organization_id,
        { subject: 'rejectedSubject', text: 'rejectedText' },
        values,
      );
    }
    return sendDocument(reply, {
      data: (await resources(baseUrl(request), [result.request]))[0],
      meta: { mailed },
    });
  });
}
