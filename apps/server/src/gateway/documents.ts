import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/client.ts';
import { CompiledApi } from './compiled-api.ts';
import type { OpenApiDocument } from './openapi.ts';

/** The columns of the catalog's `api_documentations` table that the gateway reads. */
interface ApiDocumentationsTable {
  id: number;
  alias: string;
  converted: OpenApiDocument | null;
  content_hash: string | null;
}

const MAX_CACHED = 50;

/**
 * Imported APIs by alias, compiled once per content hash: every request checks the alias's
 * current hash (one indexed lookup, so every instance sees a re-import at once) and recompiles
 * only when it changed.
 */
export function createDocumentCache(db: Db, log?: FastifyBaseLogger) {
  const catalog = db.withTables<{ api_documentations: ApiDocumentationsTable }>();
  const cache = new Map<string, { hash: string; api: Promise<CompiledApi | undefined> }>();

  async function load(id: number, alias: string): Promise<CompiledApi | undefined> {
    const row = await catalog
      .selectFrom('api_documentations')
      .select('converted')
      .where('id', '=', id)
      .executeTakeFirst();
    const doc = row?.converted;
    if (!doc || typeof doc !== 'object') return undefined;
    return new CompiledApi(doc, (what, err) =>
      log?.warn({ alias, err }, `sandbox: a schema of ${what} cannot be compiled; it is not validated`),
    );
  }

  return {
    async get(alias: string): Promise<CompiledApi | undefined> {
      let row: { id: number; content_hash: string | null } | undefined;
      try {
        row = await catalog
          .selectFrom('api_documentations')
          .select(['id', 'content_hash'])
          .where('alias', '=', alias)
          .executeTakeFirst();
      } catch (err) {
        // No catalog table (yet): no API is imported.
        if ((err as { code?: unknown }).code === '42P01') return undefined;
        throw err;
      }
      if (!row) {
        cache.delete(alias);
        return undefined;
      }
      const hash = row.content_hash ?? `id:${row.id}`;
      const hit = cache.get(alias);
      if (hit && hit.hash === hash) return hit.api;
      const api = load(row.id, alias);
      api.catch(() => cache.delete(alias));
      cache.delete(alias);
      cache.set(alias, { hash, api });
      // Oldest first in a Map: drop the least recently (re)loaded APIs beyond the limit.
      while (cache.size > MAX_CACHED) cache.delete(cache.keys().next().value!);
      return api;
    },
    clear(): void {
      cache.clear();
    },
  };
}
