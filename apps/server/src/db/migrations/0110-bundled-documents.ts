import { sql, type Kysely } from 'kysely';
import { processOpenApi } from './frozen/0110-openapi/process.ts';

/**
 * Stored documents become bundled (decision 017): every `$ref` kept instead of the whole document
 * dereferenced (Kubernetes' 4 MB description was stored as 236 MB). Each document is processed
 * again from its source for the public URL it was pointed at; operation details are now worked
 * out when asked for, so their precomputed table goes. A document that no longer processes keeps
 * its stored form.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const rows = await sql<{
    id: number;
    alias: string;
    source: string;
    source_filename: string | null;
    server: string | null;
  }>`
    select id, alias, source, source_filename, converted->'servers'->0->>'url' as server
    from api_documentations order by id`.execute(db);
  for (const row of rows.rows) {
    const suffix = `/sandbox/${encodeURIComponent(row.alias)}`;
    if (!row.server?.endsWith(suffix)) continue;
    const publicUrl = row.server.slice(0, -suffix.length);
    let processed;
    try {
      processed = await processOpenApi(row.source, {
        alias: row.alias,
        publicUrl,
        filename: row.source_filename ?? undefined,
      });
    } catch {
      continue;
    }
    await sql`update api_documentations
      set converted = ${processed.convertedText}::json,
          operation_index = ${JSON.stringify(processed.operationIndex)}::json,
          content_hash = ${processed.contentHash}
      where id = ${row.id}`.execute(db);
  }
  await db.schema.dropTable('api_operations').ifExists().execute();
}
