import {
  sql,
  type Expression,
  type ExpressionBuilder,
  type QueryExecutorProvider,
  type SelectQueryBuilder,
  type SqlBool,
} from 'kysely';
import type { FilterOperator } from './filter.ts';
import type { JsonApiQuery, PageParams } from './query.ts';
import {
  checkQuery,
  resolveFilter,
  resolveSort,
  type FieldTarget,
  type ResolvedCondition,
  type ResolvedGroup,
  type ResourceDescription,
} from './resource.ts';

/**
 * Applies a parsed JSON:API query to a Kysely select: the filter tree as WHERE, the sort as ORDER
 * BY plus the resource's tiebreaker (so pages never overlap or skip rows), and page[limit] /
 * page[offset]. Also counts the filtered rows for meta.count. Plain PostgreSQL, so it runs the
 * same on PGlite and pg. Unknown paths, unsuitable operators and bad values throw
 * JsonApiQueryError before any SQL runs.
 */

/** The description type that fits a base query: `ResourceDescriptionFor<ReturnType<typeof base>>`. */
export type ResourceDescriptionFor<QB> =
  QB extends SelectQueryBuilder<infer DB, infer TB, infer _O>
    ? TB extends keyof DB
      ? ResourceDescription<DB, TB>
      : never
    : never;

/** Escapes LIKE wildcards so that user text matches literally (backslash is PostgreSQL's default escape). */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

function comparison(
  target: Expression<unknown>,
  operator: FilterOperator,
  value: unknown,
): Expression<SqlBool> {
  const list = Array.isArray(value) ? value : [value];
  switch (operator) {
    case '=':
    case '<>':
    case '>':
    case '>=':
    case '<':
    case '<=':
      return sql<SqlBool>`${target} ${sql.raw(operator)} ${value}`;
    case 'STARTS_WITH':
      return sql<SqlBool>`${target} ilike ${`${escapeLike(String(value))}%`}`;
    case 'CONTAINS':
      return sql<SqlBool>`${target} ilike ${`%${escapeLike(String(value))}%`}`;
    case 'ENDS_WITH':
      return sql<SqlBool>`${target} ilike ${`%${escapeLike(String(value))}`}`;
    case 'IN':
      return sql<SqlBool>`${target} in (${sql.join(list)})`;
    case 'NOT IN':
      return sql<SqlBool>`${target} not in (${sql.join(list)})`;
    case 'BETWEEN':
      return sql<SqlBool>`${target} between ${list[0]} and ${list[1]}`;
    case 'NOT BETWEEN':
      return sql<SqlBool>`${target} not between ${list[0]} and ${list[1]}`;
    case 'IS NULL':
      return sql<SqlBool>`${target} is null`;
    case 'IS NOT NULL':
      return sql<SqlBool>`${target} is not null`;
  }
}

function targetExpression<DB, TB extends keyof DB>(
  eb: ExpressionBuilder<DB, TB>,
  target: Exclude<FieldTarget<DB, TB>, { exists: unknown }>,
): Expression<unknown> {
  return typeof target === 'string' ? sql.ref(target) : target.expression(eb);
}

function conditionSql<DB, TB extends keyof DB>(
  eb: ExpressionBuilder<DB, TB>,
  c: ResolvedCondition<DB, TB>,
): Expression<SqlBool> {
  const target = c.target;
  if (typeof target === 'object' && 'exists' in target) {
    return target.exists(eb, (inner) => comparison(inner, c.operator, c.value));
  }
  return comparison(targetExpression(eb, target), c.operator, c.value);
}

/** SQL for a resolved group; an empty AND is true and an empty OR is false, as in logic. */
export function groupSql<DB, TB extends keyof DB>(
  eb: ExpressionBuilder<DB, TB>,
  group: ResolvedGroup<DB, TB>,
): Expression<SqlBool> {
  if (group.children.length === 0)
    return group.conjunction === 'AND' ? sql<SqlBool>`true` : sql<SqlBool>`false`;
  const parts = group.children.map((child) =>
    child.kind === 'group' ? groupSql(eb, child) : conditionSql(eb, child),
  );
  return group.conjunction === 'AND' ? eb.and(parts) : eb.or(parts);
}

/** Adds the query's filter tree as a WHERE condition. */
export function applyFilter<DB, TB extends keyof DB, O>(
  qb: SelectQueryBuilder<DB, TB, O>,
  resource: ResourceDescription<DB, TB>,
  query: Pick<JsonApiQuery, 'filter'>,
): SelectQueryBuilder<DB, TB, O> {
  const resolved = resolveFilter(resource, query.filter);
  if (resolved.children.length === 0) return qb;
  return qb.where((eb) => groupSql(eb, resolved));
}

/** Adds ORDER BY for the query's sort (or the resource's default) and the tiebreaker column. */
export function applySort<DB, TB extends keyof DB, O>(
  qb: SelectQueryBuilder<DB, TB, O>,
  resource: ResourceDescription<DB, TB>,
  query: Pick<JsonApiQuery, 'sort'>,
): SelectQueryBuilder<DB, TB, O> {
  let out = qb;
  for (const s of resolveSort(resource, query.sort)) {
    const direction = s.direction === 'DESC' ? 'desc' : 'asc';
    out = out.orderBy((eb) => targetExpression(eb, s.target), direction);
  }
  return out.orderBy(sql.ref(resource.tiebreaker), 'asc');
}

export function applyPage<DB, TB extends keyof DB, O>(
  qb: SelectQueryBuilder<DB, TB, O>,
  page: PageParams,
): SelectQueryBuilder<DB, TB, O> {
  return qb.limit(page.limit).offset(page.offset);
}

/** Filter, sort and page in one go (after checking includes and sparse fields too). */
export function applyQuery<DB, TB extends keyof DB, O>(
  qb: SelectQueryBuilder<DB, TB, O>,
  resource: ResourceDescription<DB, TB>,
  query: JsonApiQuery,
): SelectQueryBuilder<DB, TB, O> {
  checkQuery(resource, query);
  return applyPage(applySort(applyFilter(qb, resource, query), resource, query), query.page);
}

/**
 * Counts the rows of a (filtered, unpaged) select by wrapping it: joins and DISTINCT stay correct.
 * `db` is the Kysely instance or transaction the select belongs to.
 */
export async function countRows<DB, TB extends keyof DB, O>(
  db: QueryExecutorProvider,
  qb: SelectQueryBuilder<DB, TB, O>,
): Promise<number> {
  const inner = qb.clearOrderBy().clearLimit().clearOffset();
  const result = await sql<{
    count: number | string;
  }>`select count(*) as count from ${inner} as jsonapi_counted`.execute(db);
  return Number(result.rows[0]?.count ?? 0);
}

/**
 * Runs a collection request: the page of rows and meta.count of all rows matching the filter.
 * `qb` is the module's base query (selects, joins, and its own access conditions); `db` is the
 * Kysely instance or transaction it was built on.
 */
export async function fetchCollection<DB, TB extends keyof DB, O>(
  db: QueryExecutorProvider,
  qb: SelectQueryBuilder<DB, TB, O>,
  resource: ResourceDescription<DB, TB>,
  query: JsonApiQuery,
): Promise<{ rows: O[]; count: number }> {
  checkQuery(resource, query);
  const filtered = applyFilter(qb, resource, query);
  const rows = await applyPage(applySort(filtered, resource, query), query.page).execute();
  // A short page at offset 0 already tells the count; otherwise ask the database.
  const count =
    query.page.offset === 0 && rows.length < query.page.limit ? rows.length : await countRows(db, filtered);
  return { rows, count };
}
