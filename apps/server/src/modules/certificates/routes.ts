import { revokeCertificateBoundTokens } from '../../authz-server/certificate-trust.ts';
import {
  applicationCertificateSchema,
  issueCertificateSchema,
  type CertificateListDocument,
  type CertificateResource,
} from '@portico/contracts/certificates';
import { en } from '@portico/contracts/messages';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { HttpError, notFound } from '../../lib/errors.ts';
import { requireUser } from '../../plugins/session.ts';
import { actorOf, recordAudit } from '../audit/service.ts';
import { sandboxCa } from './ca.ts';
import {
  certificateResource,
  certificateStatus,
  checkIssueRequest,
  findCertificate,
  issue,
  listCertificates,
  revoke,
} from './service.ts';
import { certDb } from './tables.ts';
import { CertificateInputError } from './x509.ts';
import { assertCan, loadOrgAccess, OWNER_ROLE, type OrgAccess } from '../organizations/service.ts';
import { ApiErrors } from '../../jsonapi/errors.ts';
import { sendDocument, type JsonApiDocument } from '../../jsonapi/document.ts';
import {
  requireApplication,
  issuesToErrors,
  objectBody,
  subscriptionRefusal,
  heldRoles,
  appDb,
} from '../applications/service.ts';

const M = en.certificates;

/** Owners (the organization-admin role, the creator included) of an active membership. */
function isOwner(access: OrgAccess): boolean {
  return access.membership.status === 'active' && access.roles.includes(OWNER_ROLE);
}

function assertOwner(access: OrgAccess): void {
  assertCan(access, 'view group');
  if (!isOwner(access)) throw new HttpError(403, M.ownerRequired, { code: 'owner_required' });
}

/**
 * Sends a certificate document with the shared layer's `sendDocument`. The contracts type these
 * documents with interfaces, which TypeScript does not take for the layer's `ResourceObject`.
 */
function sendCertificates(
  reply: FastifyReply,
  document: { data: CertificateResource | CertificateResource[] | null; meta?: object },
  status = 200,
) {
  return sendDocument(reply, document as Omit<JsonApiDocument, 'jsonapi'>, status);
}

/** Sandbox test certificates of an organization, the sandbox CA, and an application's certificate. */
export async function certificateRoutes(app: FastifyInstance): Promise<void> {
  const db = app.db;

  app.get('/api/sandbox/ca.pem', async (_request, reply) => {
    const ca = await sandboxCa(db, app.secretBox);
    return reply
      .header('Content-Type', 'application/x-pem-file')
      .header('Content-Disposition', 'attachment; filename="portico-sandbox-ca.pem"')
      .header('Cache-Control', 'public, max-age=3600')
      .send(`${ca.certificate.toString('pem')}\n`);
  });

  app.get<{ Params: { org: string } }>('/api/organizations/:org/certificates', async (request, reply) => {
    const access = await loadOrgAccess(db, request.user, request.params.org);
    assertCan(access, 'view group');
    const [rows, ca] = await Promise.all([listCertificates(db, access.org.id), sandboxCa(db, app.secretBox)]);
    const now = new Date();
    const document: CertificateListDocument = {
      data: rows.map((r) => certificateResource(r, now)),
      meta: {
        ca: {
          subject: ca.certificate.subject,
          notAfter: ca.certificate.notAfter.toISOString(),
          pem: ca.certificate.toString('pem'),
        },
        canIssue: isOwner(access),
        organization: { id: access.org.uuid, label: access.org.title },
      },
    };
    reply.header('Cache-Control', 'private, no-store');
    return sendCertificates(reply, document);
  });

  app.post<{ Params: { org: string } }>('/api/organizations/:org/certificates', async (request, reply) => {
    const user = requireUser(request);
    const access = await loadOrgAccess(db, user, request.params.org);
    assertOwner(access);
    const parsed = issueCertificateSchema.safeParse(objectBody(request.body), { reportInput: true });
    if (!parsed.success) throw new ApiErrors(422, issuesToErrors(parsed.error.issues, ''));
    const checked = checkIssueRequest(parsed.data);
    if (Array.isArray(checked)) throw new ApiErrors(422, checked);
    // The CA is made once, outside the issuing transaction (a refused CSR must not undo it).
    const ca = await sandboxCa(db, app.secretBox);
    let row;
    try {
      row = await db.transaction().execute(async (trx) => {
        const created = await issue(
          { db: trx, ca, organization: access.org, userId: user.id },
          checked,
          parsed.data.csr,
        );
        await recordAudit(trx, actorOf(request), {
          action: 'certificate.issued',
          targetType: 'certificate',
          targetId: created.uuid,
          targetLabel: `${created.kind.toUpperCase()} ${created.serial}`,
          organizationId: access.org.id,
          after: {
            kind: created.kind,
            subject: created.subject,
            serial: created.serial,
            roles: created.roles,
          },
        });
        return created;
      });
    } catch (error) {
      if (error instanceof CertificateInputError)
        throw new ApiErrors(422, [{ title: error.message, code: 'invalid_csr', pointer: `/${error.field}` }]);
      throw error;
    }
    request.log.info({ organizationId: access.org.id, certificate: row.uuid }, 'sandbox certificate issued');
    return sendCertificates(reply, { data: certificateResource(row) }, 201);
  });

  app.post<{ Params: { org: string; id: string } }>(
    '/api/organizations/:org/certificates/:id/revoke',
    async (request, reply) => {
      const user = requireUser(request);
      const access = await loadOrgAccess(db, user, request.params.org);
      assertOwner(access);
      const row = await db.transaction().execute(async (trx) => {
        const current = await findCertificate(trx, access.org.id, request.params.id);
        if (!current) throw new HttpError(404, M.notFound, { code: 'not_found' });
        if (current.revoked_at) throw new HttpError(409, M.alreadyRevoked, { code: 'already_revoked' });
        const revoked = await revoke(trx, current);
        await recordAudit(trx, actorOf(request), {
          action: 'certificate.revoked',
          targetType: 'certificate',
          targetId: revoked.uuid,
          targetLabel: `${revoked.kind.toUpperCase()} ${revoked.serial}`,
          organizationId: access.org.id,
        });
        return revoked;
      });
      // The linked applications' clients lose the roles' scopes at once.
      const clients = await appDb(db)
        .selectFrom('applications as a')
        .innerJoin('oauth_clients as c', 'c.application_uuid', 'a.uuid')
        .select('c.client_id')
        .where('a.psd2_certificate_id', '=', row.id)
        .execute();
      for (const c of clients) app.oauthClients.clearAccessCache(c.client_id);
      // Stored tokens bound to it (x5t#S256) go now; its JWT access tokens are refused by the
      // gateway from now on (authz-server/certificate-trust.ts).
      const removed = await revokeCertificateBoundTokens(db, row.pem);
      request.log.info({ certificate: row.uuid, removed }, 'sandbox certificate revoked');
      return sendCertificates(reply, { data: certificateResource(row) });
    },
  );

  app.get<{ Params: { id: string } }>('/api/applications/:id/psd2-certificate', async (request, reply) => {
    const { app: row } = await requireApplication(db, request.user, request.params.id, 'view');
    const cert =
      row.psd2_certificate_id === null
        ? null
        : await certDb(db)
            .selectFrom('organization_certificates')
            .selectAll()
            .where('id', '=', row.psd2_certificate_id)
            .executeTakeFirst();
    reply.header('Cache-Control', 'private, no-store');
    return sendCertificates(reply, { data: cert ? certificateResource(cert) : null });
  });

  app.put<{ Params: { id: string } }>('/api/applications/:id/psd2-certificate', async (request, reply) => {
    const user = requireUser(request);
    const { app: current } = await requireApplication(db, user, request.params.id, 'update');
    if (current.status === 'PRODUCTION')
      throw new HttpError(403, en.applications.cannotEdit, { code: 'production_application' });
    const parsed = applicationCertificateSchema.safeParse(objectBody(request.body), { reportInput: true });
    if (!parsed.success)
      throw new ApiErrors(422, [{ title: M.certificateFieldInvalid, pointer: '/certificate' }]);
    const ref = parsed.data.certificate;
    const updated = await db.transaction().execute(async (trx) => {
      const locked = await appDb(trx)
        .selectFrom('applications')
        .selectAll()
        .where('id', '=', current.id)
        .forUpdate()
        .executeTakeFirst();
      if (!locked) throw notFound();
      if (locked.status === 'PRODUCTION')
        throw new HttpError(403, en.applications.cannotEdit, { code: 'production_application' });
      let certificateId: number | null = null;
      if (ref !== null) {
        const cert = await findCertificate(trx, locked.organization_id, ref);
        if (!cert)
          throw new ApiErrors(422, [{ title: M.certificateOtherOrganization, pointer: '/certificate' }]);
        if (certificateStatus(cert) !== 'active')
          throw new ApiErrors(422, [{ title: M.certificateNotUsable, pointer: '/certificate' }]);
        certificateId = cert.id;
      }
      const before = locked.psd2_certificate_id;
      const row = await appDb(trx)
        .updateTable('applications')
        .set({ psd2_certificate_id: certificateId, changed: new Date() })
        .where('id', '=', locked.id)
        .returningAll()
        .executeTakeFirstOrThrow();
      // The products already subscribed must be allowed by the new certificate's roles.
      const held = await heldRoles(trx, { id: row.id });
      const products = await appDb(trx)
        .selectFrom('subscriptions as s')
        .innerJoin('api_products as p', 'p.id', 's.product_id')
        .select(['p.title', 'p.psd2_roles'])
        .where('s.application_id', '=', row.id)
        .orderBy('p.weight')
        .orderBy('p.title')
        .execute();
      const refusals = products
        .map((p) => subscriptionRefusal(p, held))
        .filter((r): r is string => r !== null);
      if (refusals.length)
        throw new ApiErrors(
          422,
          refusals.map((title) => ({ title, code: 'psd2_role_missing', pointer: '/certificate' })),
        );
      if (before !== certificateId)
        await recordAudit(trx, actorOf(request), {
          action: 'application.psd2_certificate_changed',
          targetType: 'application',
          targetId: row.uuid,
          targetLabel: row.title,
          organizationId: row.organization_id,
          before: { certificate: before },
          after: { certificate: ref },
        });
      return row;
    });
    const clients = await db
      .selectFrom('oauth_clients')
      .select('client_id')
      .where('application_uuid', '=', updated.uuid)
      .execute();
    for (const c of clients) app.oauthClients.clearAccessCache(c.client_id);
    const cert =
      updated.psd2_certificate_id === null
        ? null
        : await certDb(db)
            .selectFrom('organization_certificates')
            .selectAll()
            .where('id', '=', updated.psd2_certificate_id)
            .executeTakeFirst();
    return sendCertificates(reply, { data: cert ? certificateResource(cert) : null });
  });
}
