import { GO_LIVE_FIELDS, goLiveFormSchema, type GoLiveForm } from '@portico/contracts/applications';
import { en } from '@portico/contracts/messages';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { refuseUnknownFields, ApiErrors } from '../../jsonapi/errors.ts';
import { HttpError } from '../../lib/errors.ts';
import { requireUser } from '../../plugins/session.ts';
import { actorOf, recordAudit } from '../audit/service.ts';
import { requireApplication } from './access.ts';
import { issuesToErrors } from './forms.ts';
import { submitGoLive } from './golive.ts';
import { validateCertificates } from './psd2.ts';
import { subscribedProductIds } from './service.ts';
import type { GoLiveRequestRow } from './tables.ts';
import { rejectUnknown, type Query } from '../../jsonapi/legacy-query.ts';
import { baseUrl, sendDocument } from '../../jsonapi/document.ts';

const M = en.applications;

const goLiveDocument = z.object({
  data: z.object({
    type: z.literal('node--go_live_form'),
    attributes: z.record(z.string(), z.unknown()).optional(),
    relationships: z.object({
      field_application: z.object({
        data: z.object({
          type: z.literal('node--application'),
          id: z.union([z.string().min(1), z.number().int()]).transform(String),
        }),
      }),
    }),
  }),
});

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

/** `node--go_live_form` with the spec's field names. */
export function goLiveFormResource(base: string, r: GoLiveRequestRow, applicationUuid: string | null) {
  return {
    type: 'node--go_live_form',
    id: r.uuid,
    attributes: {
      drupal_internal__nid: r.id,
      title: r.title,
      status: r.status,
      reason: r.reason,
      field_developer_type: r.developer_type,
      field_first_name: r.first_name,
      field_last_name: r.last_name,
      field_company_name: r.company_name,
      field_address: r.address,
      field_email: r.email,
      field_site_url_download_location: r.site_url,
      field_use_cases: r.use_cases,
      created: iso(r.created),
      decided: iso(r.decided_at),
    },
    relationships: {
      field_application: {
        data: applicationUuid ? { type: 'node--application', id: applicationUuid } : null,
      },
    },
    links: { self: { href: `${base}/jsonapi/node/go_live_form/${r.uuid}` } },
  };
}

/** The go-live button's certificate check and the go-live form (spec A 2, 4, 7). */
export async function goLiveRoutes(app: FastifyInstance): Promise<void> {
  const db = app.db;

  app.get<{ Params: { id: string }; Querystring: Query }>(
    '/phpsdk/certificates/:id/validate',
    async (request, reply) => {
      rejectUnknown(request.query, () => false);
      const { app: row } = await requireApplication(db, request.user, request.params.id, 'goLive');
      const result = await validateCertificates(db, app.storage, row);
      reply.header('Cache-Control', 'no-store');
      return reply.status(result.isValid ? 200 : 422).send(result);
    },
  );

  app.post('/jsonapi/node/go_live_form', async (request, reply) => {
    const user = requireUser(request);
    refuseUnknownFields(request.body, 'node--go_live_form', {
      attributes: ['title', ...Object.values(GO_LIVE_FIELDS)],
      relationships: ['field_application'],
    });
    const doc = goLiveDocument.safeParse(request.body, { reportInput: true });
    if (!doc.success) throw new ApiErrors(422, issuesToErrors(doc.error.issues, ''));
    const { attributes = {}, relationships } = doc.data.data;
    const { app: row } = await requireApplication(
      db,
      user,
      relationships.field_application.data.id,
      'goLive',
    );
    if (row.status === 'PRODUCTION')
      throw new HttpError(409, row.golive_status === 'pending' ? M.goLivePending : M.alreadyProduction, {
        code: 'golive_conflict',
      });
    const input = Object.fromEntries(
      (Object.keys(GO_LIVE_FIELDS) as (keyof GoLiveForm)[]).map((k) => [
        k,
        attributes[GO_LIVE_FIELDS[k]] ?? '',
      ]),
    );
    const parsed = goLiveFormSchema.safeParse(input, { reportInput: true });
    if (!parsed.success)
      throw new ApiErrors(
        422,
        parsed.error.issues.map((i) => ({
          title: i.message,
          issue: i,
          pointer: `/data/attributes/${GO_LIVE_FIELDS[i.path[0] as keyof GoLiveForm] ?? String(i.path[0])}`,
        })),
      );
    const rawTitle = attributes.title;
    const title = typeof rawTitle === 'string' && rawTitle.trim() ? rawTitle.trim().slice(0, 300) : undefined;
    if (!(await subscribedProductIds(db, row.id)).length)
      throw new ApiErrors(422, [
        { title: M.noSubscription, pointer: '/data/relationships/field_application' },
      ]);
    const certificate = await validateCertificates(db, app.storage, row);
    if (!certificate.isValid)
      throw new ApiErrors(422, [{ title: certificate.message, code: 'certificate_required' }]);
    const { request: created, app: updated } = await db.transaction().execute(async (trx) => {
      const submitted = await submitGoLive(trx, row.id, { form: parsed.data, title, userId: user.id });
      await recordAudit(trx, actorOf(request), {
        action: 'go_live.requested',
        targetType: 'application',
        targetId: submitted.app.uuid,
        targetLabel: submitted.app.title,
        organizationId: submitted.app.organization_id,
        before: { status: row.status, goLiveStatus: row.golive_status },
        after: {
          status: submitted.app.status,
          goLiveStatus: submitted.app.golive_status,
          request: submitted.request.uuid,
        },
      });
      return submitted;
    });
    request.log.info({ applicationId: updated.id, goLiveRequestId: created.id }, 'go-live requested');
    return sendDocument(reply, { data: goLiveFormResource(baseUrl(request), created, updated.uuid) }, 201);
  });
}
