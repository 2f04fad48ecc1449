import { sql } from 'kysely';
import type { Db } from '../../db/client.ts';
import { catalogDb } from './tables.ts';

export type Environment = 'DEVELOPMENT' | 'PRODUCTION';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Splits a space-separated scope string (commas tolerated: content authors write both). */
export function splitScopes(value: string | null | undefined): string[] {
  return (value ?? '').split(/[\s,]+/).filter(Boolean);
}

/**
 * The OAuth scopes an application subscribed to these products gets: `scope` of each product for
 * DEVELOPMENT (sandbox) clients, `scope_production` for PRODUCTION clients. Products are given by
 * numeric id or uuid; unknown ones add nothing. Sorted, without duplicates.
 */
export async function productScopes(
  db: Db,
  productIds: readonly (number | string)[],
  environment: Environment,
): Promise<string[]> {
  const ids = productIds.filter((p): p is number => typeof p === 'number');
  const uuids = productIds.filter((p): p is string => typeof p === 'string' && UUID.test(p));
  if (!ids.length && !uuids.length) return [];
  const column = environment === 'PRODUCTION' ? 'scope_production' : 'scope';
  const rows = await catalogDb(db)
    .selectFrom('api_products')
    .select(column)
    .where((eb) =>
      eb.or([
        ...(ids.length ? [eb('id', 'in', ids)] : []),
        ...(uuids.length
          ? [
              eb(
                'uuid',
                'in',
                uuids.map((u) => u.toLowerCase()),
              ),
            ]
          : []),
      ]),
    )
    .execute();
  const scopes = new Set<string>();
  for (const row of rows) for (const s of splitScopes((row as Record<string, string>)[column])) scopes.add(s);
  return [...scopes].sort();
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The OAuth 2 / OpenID Connect scopes an OpenAPI document's security requirements ask for (top
 * level and every operation): what the sandbox checks, so what a subscription must grant. Sorted,
 * without duplicates.
 */
export function documentScopes(doc: unknown): string[] {
  if (!isRecord(doc)) return [];
  const schemes =
    isRecord(doc.components) && isRecord(doc.components.securitySchemes)
      ? doc.components.securitySchemes
      : {};
  const found = new Set<string>();
  const collect = (security: unknown) => {
    if (!Array.isArray(security)) return;
    for (const requirement of security) {
      if (!isRecord(requirement)) continue;
      for (const [name, scopes] of Object.entries(requirement)) {
        const scheme = schemes[name];
        const type = isRecord(scheme) ? scheme.type : undefined;
        if (type !== undefined && type !== 'oauth2' && type !== 'openIdConnect') continue;
        if (Array.isArray(scopes)) for (const s of scopes) if (typeof s === 'string' && s) found.add(s);
      }
    }
  };
  collect(doc.security);
  if (isRecord(doc.paths)) {
    for (const item of Object.values(doc.paths)) {
      if (!isRecord(item)) continue;
      for (const operation of Object.values(item)) if (isRecord(operation)) collect(operation.security);
    }
  }
  return [...found].sort();
}

/**
 * Adds the scopes of a documentation's document to a product's development and production scopes
 * (kept when already there), so an application subscribed to the product may call every
 * operation of it in the sandbox with either environment's credentials.
 */
export async function grantDocumentScopes(db: Db, productId: number, documentationId: number): Promise<void> {
  const c = catalogDb(db);
  // Only the parts that name scopes, not the whole (possibly very large) document.
  const row = await c
    .selectFrom('api_documentations')
    .select([
      sql<unknown>`converted->'security'`.as('security'),
      sql<unknown>`converted->'components'->'securitySchemes'`.as('schemes'),
      sql<unknown>`(select json_agg(o.value->'security') from json_each(case when json_typeof(converted->'paths') = 'object' then converted->'paths' else '{}'::json end) p, json_each(case when json_typeof(p.value) = 'object' then p.value else '{}'::json end) o where json_typeof(o.value) = 'object' and o.value->'security' is not null)`.as(
        'operations',
      ),
    ])
    .where('id', '=', documentationId)
    .executeTakeFirst();
  const parse = (v: unknown): unknown => (typeof v === 'string' ? JSON.parse(v) : v);
  const operations = parse(row?.operations);
  const wanted = row
    ? documentScopes({
        security: parse(row.security),
        components: { securitySchemes: parse(row.schemes) },
        paths: {
          '/': Object.fromEntries(
            (Array.isArray(operations) ? operations : []).map((security, i) => [`op${i}`, { security }]),
          ),
        },
      })
    : [];
  if (!wanted.length) return;
  const product = await c
    .selectFrom('api_products')
    .select(['scope', 'scope_production'])
    .where('id', '=', productId)
    .executeTakeFirst();
  if (!product) return;
  const merge = (current: string | null) => {
    const scopes = splitScopes(current);
    for (const s of wanted) if (!scopes.includes(s)) scopes.push(s);
    return scopes.join(' ');
  };
  const scope = merge(product.scope);
  const scopeProduction = merge(product.scope_production);
  if (scope === (product.scope ?? '') && scopeProduction === (product.scope_production ?? '')) return;
  await c
    .updateTable('api_products')
    .set({ scope, scope_production: scopeProduction })
    .where('id', '=', productId)
    .execute();
}
