import type { TryoutHistoryItem } from '../../lib/store';
import { TRYOUT_HELP_AFTER_FAILURES, TRYOUT_HISTORY_LIMIT } from '@portico/contracts/tryout';

/**
 * The rules of the try-out history (spec B 3, 4, 5): favorites pinned, 'Delete All' keeps them,
 * export of the selected items, import of a file of another browser.
 */

/** Favorites first, then newest first. */
export function sortHistory(items: readonly TryoutHistoryItem[]): TryoutHistoryItem[] {
  return [...items].sort((a, b) => Number(b.favorite) - Number(a.favorite) || b.created - a.created);
}

/** 'Delete All' removes every non-favorite item. */
export function deleteAll(items: readonly TryoutHistoryItem[]): TryoutHistoryItem[] {
  return items.filter((i) => i.favorite);
}

/** Keeps the newest items when the history outgrows its limit; favorites are never dropped. */
export function capHistory(items: readonly TryoutHistoryItem[]): TryoutHistoryItem[] {
  if (items.length <= TRYOUT_HISTORY_LIMIT) return [...items];
  const favorites = items.filter((i) => i.favorite);
  const rest = items.filter((i) => !i.favorite).sort((a, b) => b.created - a.created);
  return [...favorites, ...rest.slice(0, Math.max(0, TRYOUT_HISTORY_LIMIT - favorites.length))];
}

export type ExportResult = { ok: true; json: string } | { ok: false; error: 'noSelection' };

/** Export needs at least one selected item: 'You must select at least 1 item'. */
export function exportItems(
  items: readonly TryoutHistoryItem[],
  selected: ReadonlySet<string>,
): ExportResult {
  const chosen = items.filter((i) => selected.has(i.uuid));
  if (chosen.length === 0) return { ok: false, error: 'noSelection' };
  return { ok: true, json: JSON.stringify(chosen, null, 2) };
}

export type ImportResult =
  { ok: true; items: TryoutHistoryItem[] } | { ok: false; error: 'unreadable' | 'nothingToImport' };

function str(value: unknown, fallback = ''): string {
  return typeof value === 'string' ? value : fallback;
}

function stringRecord(value: unknown): Record<string, string> {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return {};
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') out[k] = String(v);
  }
  return out;
}

/**
 * Import (spec B 5): the file must be a JSON array ('We could not process your file'); only items
 * of this documentation with a method and a path are kept ('There are no items to import' when
 * none is). Kept items get a fresh uuid, the 'imported' badge, and keep their favorite mark.
 */
export function importItems(
  fileText: string,
  documentationId: string,
  now: number = Date.now(),
  newId: () => string = () => crypto.randomUUID(),
): ImportResult {
  let parsed: unknown;
  try {
    parsed = JSON.parse(fileText);
  } catch {
    return { ok: false, error: 'unreadable' };
  }
  if (!Array.isArray(parsed)) return { ok: false, error: 'unreadable' };
  const items: TryoutHistoryItem[] = [];
  for (const raw of parsed as unknown[]) {
    if (!raw || typeof raw !== 'object') continue;
    const r = raw as Record<string, unknown>;
    if (r.documentationId !== documentationId) continue;
    const method = str(r.method).toLowerCase();
    const path = str(r.path);
    if (!method || !path) continue;
    const form = (r.form && typeof r.form === 'object' ? r.form : {}) as Record<string, unknown>;
    const response =
      r.response && typeof r.response === 'object' ? (r.response as Record<string, unknown>) : null;
    items.push({
      uuid: newId(),
      documentationId,
      method,
      path,
      description: str(r.description),
      form: {
        header: stringRecord(form.header),
        query: stringRecord(form.query),
        path: stringRecord(form.path),
        ...(form.cookie ? { cookie: stringRecord(form.cookie) } : {}),
        body: str(form.body),
      },
      response:
        response && typeof response.status === 'number'
          ? { status: response.status, data: response.data }
          : null,
      created: typeof r.created === 'number' && Number.isFinite(r.created) ? r.created : now,
      favorite: r.favorite === true,
      imported: true,
      fromTour: r.fromTour === true,
    });
  }
  if (items.length === 0) return { ok: false, error: 'nothingToImport' };
  return { ok: true, items };
}

/** What makes two failing responses 'identical' for the help dialog: status and body. */
export function failureSignature(status: number, body: string): string {
  return `${status}\n${body}`;
}

/**
 * The streak of identical failures (spec B 4): a success ends it, a different failure restarts
 * it. Returns the new streak and whether the help dialog opens now (at exactly 3, so it opens
 * once per streak).
 */
export function nextFailureStreak(
  streak: { signature: string | null; count: number },
  outcome: { ok: true } | { ok: false; signature: string },
): { streak: { signature: string | null; count: number }; openHelp: boolean } {
  if (outcome.ok) return { streak: { signature: null, count: 0 }, openHelp: false };
  const count = streak.signature === outcome.signature ? streak.count + 1 : 1;
  return { streak: { signature: outcome.signature, count }, openHelp: count === TRYOUT_HELP_AFTER_FAILURES };
}
