import { diffLines, diffWordsWithSpace } from 'diff';
import type { FieldChange } from '@portico/contracts/console-content';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { en } from '@portico/contracts/messages';
import { badRequest, HttpError } from '../../lib/errors.ts';

/**
 * What the console's editors of articles and FAQ questions share (README.md 'Console'): versions
 * named by the `version` attribute or `If-Match`, the 409 that says what differs, paging.
 */

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export type { FieldChange };

/**
 * What differs from `from` to `to`, field by field, in the order of `names`: lines of the
 * `multiline` fields (an article's body, an answer), words elsewhere.
 */
export function fieldChanges<F extends object, K extends keyof F & string>(
  names: readonly K[],
  multiline: readonly K[],
  from: F,
  to: F,
): FieldChange<K>[] {
  const out: FieldChange<K>[] = [];
  for (const field of names) {
    const a = String(from[field] ?? '');
    const b = String(to[field] ?? '');
    if (a === b) continue;
    const parts = multiline.includes(field) ? diffLines(a, b) : diffWordsWithSpace(a, b);
    out.push({
      field,
      parts: parts.map((p) => ({ value: p.value, added: !!p.added, removed: !!p.removed })),
    });
  }
  return out;
}

/** The version an update started from: the `version` attribute, else the If-Match header (else 428). */
export function expectedVersion(request: FastifyRequest, bodyVersion: number | undefined): number {
  if (bodyVersion !== undefined) return bodyVersion;
  const header = request.headers['if-match'];
  const match = typeof header === 'string' ? /^\s*(?:W\/)?"(\d{1,9})"\s*$/.exec(header) : null;
  if (match) return Number(match[1]);
  throw new HttpError(428, en.console.content.errors.versionNeeded, {
    code: 'version_required',
    pointer: '/version',
  });
}

/** A deletion's version: from If-Match when one is given (`*` or none: whatever version). */
export function deleteVersion(request: FastifyRequest): number | 'any' {
  const header = request.headers['if-match'];
  return typeof header === 'string' && header.trim() !== '*' ? expectedVersion(request, undefined) : 'any';
}

export const etagOf = (version: number) => `"${version}"`;

/**
 * The 409 of a save that started from an older version: `meta.current` is what was saved
 * meanwhile, `meta.changes` what differs from what was sent; nothing was written.
 */
export function sendConflict(
  reply: FastifyReply,
  message: string,
  current: { version: number },
  changes: FieldChange[],
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

/** A whole-number query parameter such as page[limit], up to `max` (else 400). */
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
