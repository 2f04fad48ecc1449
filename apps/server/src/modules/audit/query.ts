import { format } from '@portico/contracts/format';
import { en } from '@portico/contracts/messages';
import { sql } from 'kysely';
import type { Db } from '../../db/client.ts';
import { JsonApiQueryError } from '../../jsonapi/errors.ts';
import { flattenQuery, parseJsonApiQuery, type PageParams } from '../../jsonapi/query.ts';

/**
 * Reading the audit log: the filters of `GET /admin-api/audit`, its CSV export and an
 * organization's part, and the query they run (newest first on the `audit_log_at` index).
 */
const M = en.console.audit;

export const AUDIT_PAGE = { defaultLimit: 50, maxLimit: 200 } as const;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const ACTION = /^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)+$/;
const TARGET_TYPE = /^[a-z][a-z0-9_-]*$/;
const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:\d{2})$/;

export interface AuditFilters {
  action?: string;
  /** A part of the actor's e-mail, compared without regard to case. */
  actor?: string;
  targetType?: string;
  /** The organization's uuid. */
  organization?: string;
  /** Inclusive lower bound. */
  from?: Date;
  /** Exclusive upper bound (a day given as `to` counts whole). */
  before?: Date;
}

const FILTERS = ['action', 'actor', 'target_type', 'organization', 'from', 'to'] as const;
type FilterName = (typeof FILTERS)[number];

/** `YYYY-MM-DD` (a UTC day) or an ISO 8601 timestamp with a zone; `end` gives the day's end. */
function parseDate(parameter: string, raw: string, end: boolean): Date {
  const invalid = () => new JsonApiQueryError(parameter, format(M.invalidDate, { parameter, value: raw }));
  const day = DAY.exec(raw);
  if (day) {
    const [y, m, d] = [Number(day[1]), Number(day[2]), Number(day[3])];
    const date = new Date(Date.UTC(y, m - 1, d));
    if (date.getUTCFullYear() !== y || date.getUTCMonth() !== m - 1 || date.getUTCDate() !== d)
      throw invalid();
    return end ? new Date(date.getTime() + 24 * 3600_000) : date;
  }
  if (!TIMESTAMP.test(raw)) throw invalid();
  const date = new Date(raw);
  if (Number.isNaN(date.getTime())) throw invalid();
  // A timestamp `to` includes its own millisecond.
  return end ? new Date(date.getTime() + 1) : date;
}

/**
 * The query of an audit list: only the filters named (`allowed`) and paging; anything else, a
 * repeated parameter or a bad value is a 400 naming the parameter as sent.
 */
export function parseAuditQuery(
  rawQuery: unknown,
  allowed: readonly FilterName[] = FILTERS,
  paging = true,
): { filters: AuditFilters; page: PageParams } {
  const values: Partial<Record<FilterName, string>> = {};
  const known = new Set<string>([...allowed.map((f) => `filter[${f}]`), '_format']);
  if (paging) known.add('page[limit]').add('page[offset]');
  for (const [key, value] of flattenQuery(rawQuery)) {
    if (!known.has(key)) throw new JsonApiQueryError(key, format(M.unknownParameter, { parameter: key }));
    if (Array.isArray(value)) throw new JsonApiQueryError(key, format(M.repeated, { parameter: key }));
    const name = /^filter\[(.+)\]$/.exec(key)?.[1] as FilterName | undefined;
    if (name) values[name] = value.trim();
  }
  const page = paging
    ? parseJsonApiQuery(
        Object.fromEntries(flattenQuery(rawQuery).filter(([k]) => k.startsWith('page['))),
        AUDIT_PAGE,
      ).page
    : { limit: 0, offset: 0 };
  const filters: AuditFilters = {};
  if (values.action) {
    if (!ACTION.test(values.action) || values.action.length > 100)
      throw new JsonApiQueryError('filter[action]', format(M.invalidAction, { value: values.action }));
    filters.action = values.action;
  }
  if (values.actor) {
    if (values.actor.length > 254) throw new JsonApiQueryError('filter[actor]', M.actorTooLong);
    filters.actor = values.actor;
  }
  if (values.target_type) {
    if (!TARGET_TYPE.test(values.target_type) || values.target_type.length > 100)
      throw new JsonApiQueryError(
        'filter[target_type]',
        format(M.invalidTargetType, { value: values.target_type }),
      );
    filters.targetType = values.target_type;
  }
  if (values.organization) {
    if (!UUID.test(values.organization))
      throw new JsonApiQueryError(
        'filter[organization]',
        format(M.invalidOrganization, { value: values.organization }),
      );
    filters.organization = values.organization.toLowerCase();
  }
  if (values.from) filters.from = parseDate('filter[from]', values.from, false);
  if (values.to) filters.before = parseDate('filter[to]', values.to, true);
  if (filters.from && filters.before && filters.from.getTime() >= filters.before.getTime())
    throw new JsonApiQueryError('filter[to]', M.fromAfterTo);
  return { filters, page };
}

/** `%`, `_` and `\` of a LIKE pattern match themselves. */
const likeEscape = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** The entries with what a reader sees of them: the actor's account and the organization's name. */
export function auditRows(db: Db) {
  return db
    .selectFrom('audit_log as a')
    .leftJoin('users as u', 'u.id', 'a.actor_id')
    .leftJoin('organizations as o', 'o.id', 'a.organization_id')
    .select([
      'a.id',
      'a.at',
      sql<string>`a.at::text`.as('at_key'),
      'a.actor_id',
      'a.actor_email',
      'u.uuid as actor_uuid',
      'a.action',
      'a.target_type',
      'a.target_id',
      'a.target_label',
      'a.organization_id',
      'o.uuid as organization_uuid',
      'o.title as organization_title',
      'a.before',
      'a.after',
      'a.ip',
    ]);
}

type AuditQuery = ReturnType<typeof auditRows>;
export type AuditRow = Awaited<ReturnType<AuditQuery['executeTakeFirstOrThrow']>>;

export function applyAuditFilters(qb: AuditQuery, f: AuditFilters): AuditQuery {
  let q = qb;
  if (f.action) q = q.where('a.action', '=', f.action);
  if (f.actor) q = q.where(sql<boolean>`a.actor_email ilike ${`%${likeEscape(f.actor)}%`}`);
  if (f.targetType) q = q.where('a.target_type', '=', f.targetType);
  if (f.organization)
    q = q.where(
      'a.organization_id',
      '=',
      sql<number>`(select id from organizations where uuid = ${f.organization})`,
    );
  if (f.from) q = q.where('a.at', '>=', f.from);
  if (f.before) q = q.where('a.at', '<', f.before);
  return q;
}

/** One page, newest first, and how many entries match. */
export async function auditPage(
  db: Db,
  filters: AuditFilters,
  page: PageParams,
  organizationId?: number,
): Promise<{ rows: AuditRow[]; count: number }> {
  let base = applyAuditFilters(auditRows(db), filters);
  if (organizationId !== undefined) base = base.where('a.organization_id', '=', organizationId);
  const rows = page.limit
    ? await base
        .orderBy('a.at', 'desc')
        .orderBy('a.id', 'desc')
        .limit(page.limit)
        .offset(page.offset)
        .execute()
    : [];
  const count =
    page.offset === 0 && rows.length < page.limit
      ? rows.length
      : Number(
          (
            await base
              .clearSelect()
              .select((eb) => eb.fn.countAll<string>().as('n'))
              .executeTakeFirstOrThrow()
          ).n,
        );
  return { rows, count };
}

/** Every matching entry, newest first, read in batches by (at, id) so that new entries shift nothing. */
export async function* allAuditRows(db: Db, filters: AuditFilters, batch = 500): AsyncGenerator<AuditRow> {
  let cursor: { at: string; id: string } | undefined;
  for (;;) {
    let q = applyAuditFilters(auditRows(db), filters);
    if (cursor) {
      const c = cursor;
      q = q.where(sql<boolean>`(a.at, a.id) < (${c.at}::timestamptz, ${c.id}::bigint)`);
    }
    const rows = await q.orderBy('a.at', 'desc').orderBy('a.id', 'desc').limit(batch).execute();
    for (const row of rows) yield row;
    const last = rows.at(-1);
    if (!last || rows.length < batch) return;
    cursor = { at: last.at_key, id: String(last.id) };
  }
}

/**
 * The actions recorded so far, for the console's filter: a skip scan over the `audit_log_action`
 * index (one probe per distinct action, not a read of the whole log).
 */
export async function recordedActions(db: Db): Promise<string[]> {
  const { rows } = await sql<{ action: string }>`
    with recursive t(action) as (
      (select action from audit_log order by action limit 1)
      union all
      select (select l.action from audit_log l where l.action > t.action order by l.action limit 1)
      from t where t.action is not null
    )
    select action from t where action is not null`.execute(db);
  return rows.map((r) => r.action);
}
