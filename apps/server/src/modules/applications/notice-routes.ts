import {
  NOTICE_TEXT_MAX,
  type ApplicationNotice,
  type NoticeAudience,
  type NoticeSent,
} from '@portico/contracts/api-drafts';
import { format } from '@portico/contracts/format';
import { en } from '@portico/contracts/messages';
import { sql } from 'kysely';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client.ts';
import { HttpError } from '../../lib/errors.ts';
import { texts } from '../../lib/i18n.ts';
import { recipientLocale } from '../../lib/mailer.ts';
import { actorOf, recordAudit } from '../audit/service.ts';
import { requireApplication } from './access.ts';
import { appDb } from './tables.ts';
import { OWNER_ROLE } from '../organizations/service.ts';
import {
  findDraft,
  reviewOf,
  type DraftRow,
  requireApiManager,
  checkDocumentationAlias,
  DocumentationInputError,
} from '../catalog/service.ts';

const M = en.console.apis;
/** How far back the gateway's records are read for a notice's audience. */
const AUDIENCE_DAYS = 30;

/** The operations whose callers a draft's notice is for: those removed or changed in a breaking way. */
export function breakingEndpoints(draft: DraftRow): string[] {
  const { summary } = reviewOf(draft);
  return [...summary.removed, ...summary.changed.filter((op) => op.breaking)].map((op) => op.endpoint);
}

interface AudienceApp {
  id: number;
  uuid: string;
  title: string;
  organization_id: number;
  endpoints: string[];
}

/**
 * The query of the raw calls behind an audience: which application called which of `endpoints`
 * (as the gateway records them, 'GET /<alias>/pets/{petId}') of the API in the last AUDIENCE_DAYS.
 * The only reader of `api_calls` in the portal; it goes through `api_calls_alias_time` (migration
 * 0275, tested with its plan).
 */
export const audienceCalls = (db: Db, alias: string, endpoints: string[]) =>
  db
    .selectFrom('api_calls')
    .select(['application_uuid', 'endpoint'])
    .where('api_alias', '=', alias)
    .where('occurred_at', '>=', sql<Date>`now() - make_interval(days => ${AUDIENCE_DAYS})`)
    .where('endpoint', 'in', endpoints)
    .where('application_uuid', 'is not', null)
    .groupBy(['application_uuid', 'endpoint']);

/**
 * The applications that called those operations of the API in the sandbox or production in the
 * last 30 days (the gateway's records: api_calls.application_uuid, api_alias and endpoint, the
 * method and the alias and path template), each with the operations it called ('GET /pets/{id}').
 */
export async function noticeAudience(db: Db, alias: string, endpoints: string[]): Promise<AudienceApp[]> {
  if (!endpoints.length) return [];
  // The gateway names a call's endpoint with its API: 'GET /<alias>/pets/{petId}' (gateway/plugin.ts).
  const recorded = new Map<string, string>(
    endpoints.map((e) => {
      const space = e.indexOf(' ');
      return [`${e.slice(0, space)} /${alias}${e.slice(space + 1)}`, e];
    }),
  );
  const calls = await audienceCalls(db, alias, [...recorded.keys()]).execute();
  const called = new Map<string, string[]>();
  for (const c of calls) {
    const uuid = c.application_uuid!.toLowerCase();
    called.set(uuid, [...(called.get(uuid) ?? []), recorded.get(c.endpoint)!]);
  }
  const uuids = [...called.keys()].filter((u) => /^[0-9a-f-]{36}$/.test(u));
  if (!uuids.length) return [];
  const apps = await appDb(db)
    .selectFrom('applications')
    .select(['id', 'uuid', 'title', 'organization_id'])
    .where('uuid', 'in', uuids)
    .orderBy('id')
    .execute();
  return apps.map((a) => ({ ...a, endpoints: called.get(a.uuid.toLowerCase())!.sort() }));
}

const audienceOf = (apps: AudienceApp[], endpoints: string[]): NoticeAudience => ({
  applications: apps.length,
  organizations: new Set(apps.map((a) => a.organization_id)).size,
  endpoints,
});

/** The e-mail addresses of the owners of those organizations (active owners and the creator). */
async function ownerAddresses(db: Db, organizationIds: number[]): Promise<Map<number, string[]>> {
  const members = await db
    .selectFrom('memberships as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .select(['m.organization_id', 'u.email'])
    .where('m.organization_id', 'in', organizationIds)
    .where('m.status', '=', 'active')
    .where(sql<boolean>`${OWNER_ROLE} = any(m.roles)`)
    .execute();
  const creators = await db
    .selectFrom('organizations as o')
    .innerJoin('users as u', 'u.id', 'o.creator_id')
    .select(['o.id as organization_id', 'u.email'])
    .where('o.id', 'in', organizationIds)
    .execute();
  const out = new Map<number, string[]>();
  for (const r of [...members, ...creators]) {
    if (!r.email) continue;
    const list = out.get(r.organization_id) ?? [];
    if (!list.includes(r.email.toLowerCase())) list.push(r.email.toLowerCase());
    out.set(r.organization_id, list);
  }
  return out;
}

function aliasOf(value: string): string {
  try {
    return checkDocumentationAlias(value);
  } catch (err) {
    if (err instanceof DocumentationInputError) throw new HttpError(404, M.errors.noSuchDraft);
    throw err;
  }
}

/**
 * Notices about breaking changes (issue 27, decision 047): the API manager sees whom a published
 * draft's breaking changes reach, writes the notice, and Portico e-mails the owners of the
 * organizations and shows it on each application's page.
 */
export async function noticeRoutes(app: FastifyInstance): Promise<void> {
  async function draftOf(params: { alias: string; id: string }): Promise<DraftRow> {
    const draft = await findDraft(app.db, aliasOf(params.alias), params.id);
    if (!draft) throw new HttpError(404, M.errors.noSuchDraft);
    return draft;
  }

  app.get<{ Params: { alias: string; id: string } }>(
    '/admin-api/catalog/apis/:alias/drafts/:id/audience',
    async (request, reply) => {
      requireApiManager(request);
      const draft = await draftOf(request.params);
      const endpoints = breakingEndpoints(draft);
      const apps = await noticeAudience(app.db, draft.documentation_alias, endpoints);
      reply.header('Cache-Control', 'no-store');
      return { data: audienceOf(apps, endpoints) };
    },
  );

  app.post<{ Params: { alias: string; id: string } }>(
    '/admin-api/catalog/apis/:alias/drafts/:id/notices',
    async (request, reply) => {
      requireApiManager(request);
      const draft = await draftOf(request.params);
      const body = (request.body ?? {}) as Record<string, unknown>;
      const text = typeof body.text === 'string' ? body.text.trim() : '';
      if (!text) throw new HttpError(422, M.errors.textRequired, { pointer: '/text' });
      if (text.length > NOTICE_TEXT_MAX) {
        throw new HttpError(422, format(M.errors.textTooLong, { max: NOTICE_TEXT_MAX }), {
          pointer: '/text',
        });
      }
      if (!draft.published_at) throw new HttpError(409, M.errors.notPublished);
      const endpoints = breakingEndpoints(draft);
      const apps = await noticeAudience(app.db, draft.documentation_alias, endpoints);
      if (!apps.length) throw new HttpError(409, M.errors.nothingToNotify);
      const owners = await ownerAddresses(app.db, [...new Set(apps.map((a) => a.organization_id))]);
      const recipients = new Set([...owners.values()].flat());
      const actor = actorOf(request);
      await app.db.transaction().execute(async (trx) => {
        await appDb(trx)
          .insertInto('application_notices')
          .values(
            apps.map((a) => ({
              application_id: a.id,
              draft_id: draft.id,
              api_alias: draft.documentation_alias,
              api_title: draft.title,
              text,
              endpoints: JSON.stringify(a.endpoints),
              created_by: actor.id,
            })),
          )
          .execute();
        await recordAudit(trx, actor, {
          action: 'api.notice_sent',
          targetType: 'api',
          targetId: draft.documentation_alias,
          targetLabel: draft.title,
          after: {
            draft: draft.uuid,
            text,
            endpoints,
            applications: apps.map((a) => a.uuid),
            organizations: new Set(apps.map((a) => a.organization_id)).size,
            recipients: recipients.size,
          },
        });
      });
      // After the commit: a notice stands even when a mail fails (the outbox keeps it as failed).
      for (const a of apps) {
        for (const to of owners.get(a.organization_id) ?? []) {
          const values = {
            title: draft.title,
            application: a.title,
            text,
            endpoints: a.endpoints.join(', '),
            link: `${app.config.publicUrl}/application/${a.uuid}`,
          };
          try {
            const T = texts(await recipientLocale(app.db, to), 'emails', 'console.apis');
            await app.mailer.send({
              to,
              subject: T('noticeSubject', values),
              text: T('noticeMail', values),
            });
          } catch (err) {
            request.log.warn({ err, application: a.uuid }, 'notice mail failed');
          }
        }
      }
      const answer: NoticeSent = { ...audienceOf(apps, endpoints), recipients: recipients.size };
      return reply.status(201).send({ data: answer });
    },
  );

  // The notices of one application, for whoever may view it (members of its organization).
  app.get<{ Params: { id: string } }>('/api/applications/:id/notices', async (request, reply) => {
    const { app: application } = await requireApplication(
      app.db,
      request.user ?? null,
      request.params.id,
      'view',
    );
    const rows = await appDb(app.db)
      .selectFrom('application_notices')
      .select(['uuid', 'api_alias', 'api_title', 'text', 'endpoints', 'created'])
      .where('application_id', '=', application.id)
      .orderBy('created', 'desc')
      .orderBy('id', 'desc')
      .limit(50)
      .execute();
    const data: ApplicationNotice[] = rows.map((r) => ({
      id: r.uuid,
      apiAlias: r.api_alias,
      apiTitle: r.api_title,
      text: r.text,
      endpoints: typeof r.endpoints === 'string' ? (JSON.parse(r.endpoints) as string[]) : r.endpoints,
      createdAt: new Date(r.created).toISOString(),
    }));
    reply.header('Cache-Control', 'no-store');
    return { data };
  });
}
