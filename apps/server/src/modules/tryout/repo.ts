import type { TryoutHistoryItemInput } from '@portico/contracts/tryout';
import type { Db } from '../../db/client.ts';
import { tryoutDb } from './tables.ts';

/** The rows of `tryout_history`, always scoped to one user: nobody reads another's history. */
export function tryoutRepo(db: Db) {
  const t = () => tryoutDb(db);
  return {
    async list(userId: number, documentationId: string | undefined): Promise<TryoutHistoryItemInput[]> {
      let q = t().selectFrom('tryout_history').select('item').where('user_id', '=', userId);
      if (documentationId !== undefined) q = q.where('documentation_id', '=', documentationId);
      const rows = await q.orderBy('favorite', 'desc').orderBy('created', 'desc').execute();
      return rows.map((r) => r.item as TryoutHistoryItemInput);
    },
    async upsert(userId: number, item: TryoutHistoryItemInput): Promise<void> {
      const values = {
        documentation_id: item.documentationId,
        favorite: item.favorite,
        created: item.created,
        item: JSON.stringify(item),
      };
      await t()
        .insertInto('tryout_history')
        .values({ user_id: userId, uuid: item.uuid, ...values })
        .onConflict((oc) =>
          oc.columns(['user_id', 'uuid']).doUpdateSet({ ...values, updated_at: new Date() }),
        )
        .execute();
    },
    /** Drops the oldest non-favorite items beyond `limit` items of the user. */
    async trim(userId: number, limit: number): Promise<void> {
      const keep = t()
        .selectFrom('tryout_history')
        .select('uuid')
        .where('user_id', '=', userId)
        .orderBy('favorite', 'desc')
        .orderBy('created', 'desc')
        .limit(limit);
      await t()
        .deleteFrom('tryout_history')
        .where('user_id', '=', userId)
        .where('favorite', '=', false)
        .where('uuid', 'not in', keep)
        .execute();
    },
    async remove(userId: number, uuid: string): Promise<boolean> {
      const result = await t()
        .deleteFrom('tryout_history')
        .where('user_id', '=', userId)
        .where('uuid', '=', uuid)
        .executeTakeFirst();
      return result.numDeletedRows > 0n;
    },
    /** 'Delete All': every non-favorite item of one documentation. */
    async removeAll(userId: number, documentationId: string): Promise<number> {
      const result = await t()
        .deleteFrom('tryout_history')
        .where('user_id', '=', userId)
        .where('documentation_id', '=', documentationId)
        .where('favorite', '=', false)
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}
