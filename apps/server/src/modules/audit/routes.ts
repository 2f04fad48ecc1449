import { Readable, pipeline } from 'node:stream';
import { en } from '@portico/contracts/messages';
import { PROVIDER_ROLES } from '@portico/contracts/provider-roles';
import { stringify } from 'csv-stringify';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { collectionDocument, requestUrl, sendDocument, type ResourceObject } from '../../jsonapi/document.ts';
import { HttpError } from '../../lib/errors.ts';
import { requireProviderRole, requireUser } from '../../plugins/session.ts';
import { allAuditRows, auditPage, parseAuditQuery, recordedActions, type AuditRow } from './query.ts';
import { OWNER_ROLE, loadOrgAccess } from '../organizations/service.ts';

const M = en.console.audit;

const iso = (d: Date | string) => new Date(d).toISOString();

/**
 * An entry as JSON:API (`audit--entry`). An organization's owners see no address, and an entry by
 * the provider's team says `actor.provider` instead of naming the person.
 */
function entryResource(row: AuditRow, view: { ip: boolean; provider: boolean }): ResourceObject {
  return {
    type: 'audit--entry',
    id: String(row.id),
    attributes: {
      at: iso(row.at),
      action: row.action,
      actor: view.provider
        ? { id: null, email: null, provider: true }
        : { id: row.actor_uuid ?? null, email: row.actor_email, provider: false },
      targetType: row.target_type,
      targetId: row.target_id,
      targetLabel: row.target_label,
      organization: row.organization_uuid
        ? { id: row.organization_uuid, label: row.organization_title }
        : null,
      before: row.before ?? null,
      after: row.after ?? null,
      ...(view.ip ? { ip: row.ip } : {}),
    },
  };
}

const CSV_COLUMNS = [
  'at',
  'actor_email',
  'action',
  'target_type',
  'target_id',
  'target_label',
  'organization_id',
  'organization',
  'ip',
  'before',
  'after',
] as const;

function csvRecord(row: AuditRow): Record<(typeof CSV_COLUMNS)[number], string> {
  const json = (v: unknown) => (v === null || v === undefined ? '' : JSON.stringify(v));
  return {
    at: iso(row.at),
    actor_email: row.actor_email ?? '',
    action: row.action,
    target_type: row.target_type,
    target_id: row.target_id ?? '',
    target_label: row.target_label ?? '',
    organization_id: row.organization_uuid ?? '',
    organization: row.organization_title ?? '',
    ip: row.ip ?? '',
    before: json(row.before),
    after: json(row.after),
  };
}

/**
 * The audit log for the provider's team (every provider role may read it: it is how the team
 * answers "who did this?", and it holds no secrets) and an organization's part for its owners.
 * Nothing here writes: entries are added by `recordAudit` only, and the table refuses updates,
 * deletes and truncation (migration 0270).
 */
export async function auditRoutes(app: FastifyInstance): Promise<void> {
  const db = app.db;

  app.get('/admin-api/audit', async (request, reply) => {
    requireProviderRole(request, PROVIDER_ROLES, M.providersOnly);
    const { filters, page } = parseAuditQuery(request.query);
    const [{ rows, count }, actions] = await Promise.all([auditPage(db, filters, page), recordedActions(db)]);
    reply.header('Cache-Control', 'no-store');
    return sendDocument(
      reply,
      collectionDocument({
        url: requestUrl(request),
        data: rows.map((r) => entryResource(r, { ip: true, provider: false })),
        count,
        page,
        meta: { actions },
      }),
    );
  });

  app.get('/admin-api/audit.csv', async (request, reply) => {
    requireProviderRole(request, PROVIDER_ROLES, M.providersOnly);
    const { filters } = parseAuditQuery(request.query, undefined, false);
    // RFC 4180 (CRLF, quotes doubled), and a cell that a spreadsheet would run as a formula
    // (= + - @, tab, carriage return) gets a leading apostrophe.
    const csv = stringify({
      header: true,
      columns: [...CSV_COLUMNS],
      record_delimiter: 'windows',
      escape_formulas: true,
    });
    const source = Readable.from(
      (async function* () {
        for await (const row of allAuditRows(db, filters)) yield csvRecord(row);
      })(),
    );
    pipeline(source, csv, (err) => {
      if (err) request.log.error({ err }, 'audit export failed');
    });
    const stamp = new Date().toISOString().slice(0, 10);
    return reply
      .header('Content-Type', 'text/csv; charset=utf-8')
      .header('Content-Disposition', `attachment; filename="audit-${stamp}.csv"`)
      .header('Cache-Control', 'no-store')
      .send(csv);
  });

  /**
   * An organization's part, for its owners: 404 for a stranger (as every organization call), 403
   * for a member who is not an owner. The address is left out, and an entry by the provider's team
   * (an account with a provider role that is not a member, e.g. a go-live decision) names no person.
   */
  app.get<{ Params: { uuid: string } }>('/jsonapi/group/organization/:uuid/audit', async (request, reply) => {
    const user = requireUser(request);
    const access = await loadOrgAccess(db, user, request.params.uuid);
    if (access.membership.status !== 'active' || !access.roles.includes(OWNER_ROLE))
      throw new HttpError(403, en.organizations.activity.ownersOnly);
    const { filters, page } = parseAuditQuery(request.query, [
      'action',
      'actor',
      'target_type',
      'from',
      'to',
    ]);
    const { rows, count } = await auditPage(db, filters, page, access.org.id);
    const providerIds = new Set(
      (
        await db
          .selectFrom('users as u')
          .select('u.id')
          .where(
            'u.id',
            'in',
            [...new Set(rows.map((r) => r.actor_id).filter((id): id is number => id !== null))].concat(-1),
          )
          .where((eb) =>
            eb.or([
              eb('u.is_admin', '=', true),
              eb.exists(
                eb
                  .selectFrom('provider_roles as p')
                  .whereRef('p.user_id', '=', 'u.id')
                  .select(sql.lit(1).as('one')),
              ),
            ]),
          )
          .where(({ not, exists, selectFrom }) =>
            not(
              exists(
                selectFrom('memberships as m')
                  .whereRef('m.user_id', '=', 'u.id')
                  .where('m.organization_id', '=', access.org.id)
                  .select(sql.lit(1).as('one')),
              ),
            ),
          )
          .execute()
      ).map((r) => r.id),
    );
    reply.header('Cache-Control', 'private, no-store');
    return sendDocument(
      reply,
      collectionDocument({
        url: requestUrl(request),
        data: rows.map((r) =>
          entryResource(r, { ip: false, provider: r.actor_id !== null && providerIds.has(r.actor_id) }),
        ),
        count,
        page,
      }),
    );
  });
}
