import {
  TRYOUT_HISTORY_LIMIT,
  TRYOUT_RESPONSE_MAX_CHARS,
  tryoutHistoryItemSchema,
  type TryoutHistoryItemInput,
} from '@portico/contracts/tryout';
import type { Db } from '../../db/client.ts';
import { HttpError } from '../../lib/errors.ts';
import { tryoutRepo } from './repo.ts';

/**
 * The stored try-out history (spec B 3, 4): owner-only, at most TRYOUT_HISTORY_LIMIT items per
 * user (the oldest non-favorites go first), a response body cut to TRYOUT_RESPONSE_MAX_CHARS.
 */
export function tryoutService(db: Db) {
  return {
    list(userId: number, documentationId: string | undefined) {
      return tryoutRepo(db).list(userId, documentationId);
    },
    /** Validates, trims and stores one item in one transaction (insert or replace by uuid). */
    async save(userId: number, uuid: string, body: unknown): Promise<TryoutHistoryItemInput> {
      const item = parseItem(body);
      if (item.uuid !== uuid)
        throw new HttpError(400, 'The item uuid must match the address.', { pointer: '/uuid' });
      await db.transaction().execute(async (trx) => {
        const repo = tryoutRepo(trx);
        await repo.upsert(userId, item);
        await repo.trim(userId, TRYOUT_HISTORY_LIMIT);
      });
      return item;
    },
    remove(userId: number, uuid: string) {
      return tryoutRepo(db).remove(userId, uuid);
    },
    removeAll(userId: number, documentationId: string) {
      return tryoutRepo(db).removeAll(userId, documentationId);
    },
  };
}

/** A history item or a 400 naming the first field at fault (as a JSON pointer). */
export function parseItem(body: unknown): TryoutHistoryItemInput {
  const parsed = tryoutHistoryItemSchema.safeParse(body, { reportInput: true });
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const pointer = `/${issue.path.map(String).join('/')}`;
    throw new HttpError(400, `${pointer === '/' ? 'The item' : pointer.slice(1)}: ${issue.message}`, {
      pointer,
      issues: [issue],
    });
  }
  const item = parsed.data;
  if (item.response) {
    const text = JSON.stringify(item.response.data ?? null);
    if (text.length > TRYOUT_RESPONSE_MAX_CHARS) {
      item.response = { status: item.response.status, data: `${text.slice(0, TRYOUT_RESPONSE_MAX_CHARS)}…` };
    }
  }
  return item;
}
