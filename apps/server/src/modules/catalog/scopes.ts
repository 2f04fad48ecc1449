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
