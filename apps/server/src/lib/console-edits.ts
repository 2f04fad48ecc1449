import { diffLines, diffWordsWithSpace } from 'diff';
import type { FieldChange } from '@portico/contracts/console-pages';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { badRequest, HttpError } from './errors.ts';

/**
 * What the console's editors (articles, FAQ questions, pages, site texts) share: an edit names the version it started from,
 * a stale one is answered with 409, the version saved meanwhile and what differs, field by field.
 */

export type { FieldChange };

/** A field's value as the diff sees it: lists one item a line, null as nothing. */
function text(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (Array.isArray(value)) return value.map(String).join('\n');
  return String(value);
}

/**
 * What differs from `from` to `to` over `fields`, in that order: lines of the `lineFields` (a
 * Markdown body, a list), words elsewhere (the `diff` package's parts).
 */
export function fieldChanges<F extends object, K extends keyof F & string>(
  from: F,
  to: F,
  fields: readonly K[],
  lineFields: readonly K[] = [],
): FieldChange<K>[] {
  const out: FieldChange<K>[] = [];
  for (const field of fields) {
    const a = text(from[field]);
    const b = text(to[field]);
    if (a === b) continue;
    const parts = lineFields.includes(field) ? diffLines(a, b) : diffWordsWithSpace(a, b);
    out.push({
      field,
      parts: parts.map((p) => ({ value: p.value, added: !!p.added, removed: !!p.removed })),
    });
  }
  return out;
}

/**
 * The version an update started from: the `version` attribute, else the If-Match header
 * (`"3"`); neither is a 428 with `message`.
 */
export function expectedVersion(
  request: FastifyRequest,
  bodyVersion: number | undefined,
  message: string,
): number {
  if (bodyVersion !== undefined) return bodyVersion;
  const header = request.headers['if-match'];
  const match = typeof header === 'string' ? /^\s*(?:W\/)?"(\d{1,9})"\s*$/.exec(header) : null;
  if (match) return Number(match[1]);
  throw new HttpError(428, message, { code: 'version_required', pointer: '/version' });
}

/** A DELETE's expected version: its If-Match (none, or `*`, deletes whatever the version). */
export function deleteVersion(request: FastifyRequest, message: string): number | 'any' {
  const header = request.headers['if-match'];
  return typeof header === 'string' && header.trim() !== '*'
    ? expectedVersion(request, undefined, message)
    : 'any';
}

export const etagOf = (version: number) => `"${version}"`;

/** The 409 of a stale save: `current` (as the client shows it, with its version) and `changes`. */
export function sendConflict(
  reply: FastifyReply,
  message: string,
  current: { version: number },
  changes: readonly object[],
) {
  return reply
    .code(409)
    .header('ETag', etagOf(current.version))
    .header('Cache-Control', 'no-store')
    .type('application/vnd.api+json')
    .send({
      jsonapi: { version: '1.0' },
      errors: [{ status: '409', code: 'conflict', title: message, detail: message }],
      meta: { current, changes },
    });
}

/** A paging parameter (`page[limit]`, `page[offset]`): a whole number up to `max`. */
export function pageParam(raw: unknown, name: string, fallback: number, max: number): number {
  if (raw === undefined || raw === '') return fallback;
  if (typeof raw !== 'string' || !/^\d{1,7}$/.test(raw) || Number(raw) > max)
    throw badRequest(`${name} must be a whole number up to ${max}.`, name);
  return Number(raw);
}

/** The `q` of a list: a text of at most 200 characters, or undefined. */
export function searchParam(raw: unknown): string | undefined {
  if (raw === undefined) return undefined;
  if (typeof raw !== 'string' || raw.length > 200)
    throw badRequest('q must be a text of at most 200 characters.', 'q');
  return raw.trim() || undefined;
}
