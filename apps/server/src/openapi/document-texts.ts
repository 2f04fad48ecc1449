import { sql } from 'kysely';
import type { Db } from '../db/client.ts';
import { sharedTextPieces, splitText, type SharedText } from '../lib/text-pieces.ts';

/**
 * A documentation's big texts (its source, converted document and operation index: decision 042)
 * in rows of at most
 * TEXT_CHUNK_CHARS (migration 0220, decision 031). When PGlite ran on the main thread, reading or
 * writing GitHub's 13 MB source in one statement held the event loop for 200 ms and grew its
 * memory by 450 MB; one row per statement costs a few milliseconds each (and since decision 054
 * each is another thread's work). Texts up to TEXT_CHUNK_CHARS stay in their columns, as before, and so do
 * texts stored before migration 0220: readers take the rows when there are any, else the column.
 */
export const TEXT_CHUNK_CHARS = 256 * 1024;

export type DocumentTextPart = 'source' | 'converted' | 'operation_index';

/** Big texts of a documentation, in rows of at most TEXT_CHUNK_CHARS (the catalog's tables.ts). */
export interface ApiDocumentTextsTable {
  documentation_id: number;
  part: DocumentTextPart;
  seq: number;
  body: string;
}

/**
 * The tables this file reads and writes: the rows above and, of the catalog's `api_documentations`,
 * the key (the texts' columns are read by name, `sql.ref`).
 */
type DocumentTextsTables = {
  api_document_texts: ApiDocumentTextsTable;
  api_documentations: { id: number };
};

const textsDb = (db: Db) => db.withTables<DocumentTextsTables>();

/** True when a text is stored as rows (its column then holds null, or the digest for `converted`). */
export const storedInRows = (text: string | SharedText) => text.length > TEXT_CHUNK_CHARS;

/**
 * Writes the rows of the texts given (replacing their earlier rows; none for a text that fits its
 * column). Call it in the transaction that writes the columns.
 */
export async function writeDocumentTexts(
  db: Db,
  documentationId: number,
  texts: Partial<Record<DocumentTextPart, string | SharedText>>,
): Promise<void> {
  const c = textsDb(db);
  for (const [part, text] of Object.entries(texts) as [DocumentTextPart, string | SharedText | undefined][]) {
    if (text === undefined) continue;
    await c
      .deleteFrom('api_document_texts')
      .where('documentation_id', '=', documentationId)
      .where('part', '=', part)
      .execute();
    if (!storedInRows(text)) continue;
    // A SharedText (from a worker thread) is already in pieces of one row, decoded one at a time.
    const chunks = typeof text === 'string' ? splitText(text, TEXT_CHUNK_CHARS) : sharedTextPieces(text);
    let seq = 0;
    for (const body of chunks) {
      await c
        .insertInto('api_document_texts')
        .values({ documentation_id: documentationId, part, seq: seq++, body })
        .execute();
    }
  }
}

/**
 * The stored text of a documentation's part, a row at a time (the column's text in slices of the
 * same size when it has no rows); each row arrives from the database in a turn of the event loop
 * of its own. Nothing when the documentation has no such text.
 */
export async function* documentTextChunks(
  db: Db,
  documentationId: number,
  part: DocumentTextPart,
): AsyncGenerator<string> {
  const c = textsDb(db);
  const rows = await c
    .selectFrom('api_document_texts')
    .select('seq')
    .where('documentation_id', '=', documentationId)
    .where('part', '=', part)
    .orderBy('seq')
    .execute();
  if (!rows.length) {
    const row = await c
      .selectFrom('api_documentations')
      .select(sql<string | null>`${sql.ref(part)}::text`.as('text'))
      .where('id', '=', documentationId)
      .executeTakeFirst();
    if (typeof row?.text === 'string') yield* splitText(row.text, TEXT_CHUNK_CHARS);
    return;
  }
  for (const { seq } of rows) {
    const row = await c
      .selectFrom('api_document_texts')
      .select('body')
      .where('documentation_id', '=', documentationId)
      .where('part', '=', part)
      .where('seq', '=', seq)
      .executeTakeFirst();
    // Replaced meanwhile (a re-import): the caller reads it again.
    if (!row) throw new Error(`the ${part} text of documentation ${documentationId} changed while read`);
    yield row.body;
  }
}

/** The whole stored text of a documentation's part (read a row at a time), or undefined. */
export async function readDocumentText(
  db: Db,
  documentationId: number,
  part: DocumentTextPart,
): Promise<string | undefined> {
  const parts: string[] = [];
  let any = false;
  for await (const chunk of documentTextChunks(db, documentationId, part)) {
    parts.push(chunk);
    any = true;
  }
  return any ? parts.join('') : (await hasEmptyText(db, documentationId, part)) ? '' : undefined;
}

/** An empty text has no slice: tell it from no text. */
async function hasEmptyText(db: Db, documentationId: number, part: DocumentTextPart): Promise<boolean> {
  const row = await textsDb(db)
    .selectFrom('api_documentations')
    .select(sql<boolean>`${sql.ref(part)}::text = ''`.as('empty'))
    .where('id', '=', documentationId)
    .executeTakeFirst();
  return row?.empty === true;
}
