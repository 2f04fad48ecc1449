import { en } from '@portico/contracts/messages';
import { format } from '@portico/contracts/format';
import { HttpError } from './errors.ts';

/** A UUID as the routes name items by (any version, either case). */
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The largest value of PostgreSQL's `integer` (the `serial` ids of every table but api_calls). */
export const MAX_SERIAL_ID = 2 ** 31 - 1;

/**
 * A numeric id as written in a URL or document: decimal digits within PostgreSQL's `integer`.
 * Anything else is undefined (callers then try a uuid, or answer 404) — never a number the
 * database refuses. With `parameter`, digits beyond the range are a 400 naming that parameter.
 */
export function serialId(raw: string, parameter?: string): number | undefined {
  if (!/^\d+$/.test(raw)) return undefined;
  const id = raw.length <= 10 ? Number(raw) : Infinity;
  if (id <= MAX_SERIAL_ID) return id;
  if (parameter === undefined) return undefined;
  throw new HttpError(400, format(en.api.idOutOfRange, { field: parameter, max: MAX_SERIAL_ID }), {
    parameter,
  });
}
