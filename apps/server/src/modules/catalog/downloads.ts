import { Readable } from 'node:stream';
import type { Db } from '../../db/client.ts';
import { sizedPromiseCache } from '../../lib/sized-promise-cache.ts';
import { storedDocument } from '../../openapi/stored-document.ts';
import { documentTextChunks, readDocumentText, type DocumentTextPart } from '../../openapi/document-texts.ts';
import { runInDocumentWorker } from '../../openapi/pool.ts';
import { cutOperationSlice } from '../../openapi/slice.ts';
import { detailTargetInTurns, operationDetail } from './operation-details.ts';
import type { Obj } from '../../openapi/operations.ts';

/**
 * Large stored documents leave the server in pieces (decisions 017, 031): the stored text is read a
 * row (document-texts.ts) at a time and sent as the client takes it, YAML is written one path or
 * component at a time, and the event loop gets a turn between pieces, so a download of a 13 MB
 * document never holds the server.
 */

/** A stream of one stored text of a documentation; undefined when there is none. */
export async function storedTextStream(
  db: Db,
  id: number,
  column: DocumentTextPart,
): Promise<Readable | undefined> {
  const chunks = documentTextChunks(db, id, column);
  // The first row is read before answering: no text is a 404, not an empty 200.
  const first = await chunks.next();
  if (first.done) {
    const empty = await readDocumentText(db, id, column);
    return empty === undefined ? undefined : Readable.from([Buffer.alloc(0)]);
  }
  async function* bytes() {
    yield Buffer.from(first.value as string, 'utf8');
    for await (const chunk of chunks) yield Buffer.from(chunk, 'utf8');
  }
  return Readable.from(bytes(), { objectMode: false });
}

const YAML_TASK = new URL('./yaml-task.ts', import.meta.url);

/** YAML downloads by document and content, as the worker wrote them; bounded by their bytes. */
const yamlDownloads = sizedPromiseCache<Uint8Array | undefined>({
  maxSize: 32 * 1024 * 1024,
  sizeOf: (written) => written.byteLength,
});

/**
 * The YAML download of a stored document, undefined when it has no stored JSON: written in a
 * worker thread of the document pool (yaml-task.ts) on first request, kept while it fits the
 * cache, and sent in pieces as the client takes them. This thread only reads the rows and writes
 * the bytes.
 */
export async function yamlDownload(db: Db, id: number, hash: string | null): Promise<Readable | undefined> {
  const yaml = await yamlDownloads.get(`${id}:${hash ?? ''}`, async () => {
    const rows: string[] = [];
    for await (const row of documentTextChunks(db, id, 'converted')) rows.push(row);
    if (!rows.length) return undefined;
    return runInDocumentWorker<Uint8Array>(YAML_TASK, 'documentYaml', { rows });
  });
  if (!yaml) return undefined;
  function* pieces() {
    for (let at = 0; at < yaml!.byteLength; at += 256 * 1024) {
      yield Buffer.from(yaml!.buffer, yaml!.byteOffset + at, Math.min(256 * 1024, yaml!.byteLength - at));
    }
  }
  return Readable.from(pieces(), { objectMode: false });
}

const DETAIL_TASK = new URL('./detail-task.ts', import.meta.url);

/** Operation details as JSON text, by document and key; bounded by their total size. */
const details = sizedPromiseCache<string | undefined>({
  maxSize: 32 * 1024 * 1024,
  sizeOf: (text) => text.length,
});

/** The reference's details of one operation, worked out on first request (slice.ts). */
export function operationDetailText(
  db: Db,
  id: number,
  hash: string | null,
  key: string,
): Promise<string | undefined> {
  return operationDetailOf(`${id}:${hash ?? ''}`, () => storedDocument(db, id, hash ?? `id:${id}`), key);
}

/**
 * The details of one operation of a document, whichever document it is: a published one
 * (operationDetailText) or a draft's (draft-preview.ts). `document` names the document and its
 * content for the cache (two documents never share a name); `load` gives it parsed, when the
 * details are not cached.
 */
export function operationDetailOf(
  document: string,
  load: () => Promise<{ doc: Obj } | undefined>,
  key: string,
): Promise<string | undefined> {
  async function compute(): Promise<string | undefined> {
    const entry = await load();
    if (!entry) return undefined;
    const target = await detailTargetInTurns(entry.doc, key);
    if (!target) return undefined;
    // The slice is cut here (a quick walk) and dereferenced, worked out and serialized in a worker
    // (decision 038): here, a big operation's took up to 227 ms of one turn. Should the worker
    // fail, it is all done here, as before.
    const slice = cutOperationSlice(
      entry.doc,
      target.method,
      target.path,
      target.webhook ? 'webhooks' : 'paths',
    );
    try {
      const text = await runInDocumentWorker<string | null>(DETAIL_TASK, 'operationDetailText', {
        slice,
        target,
      });
      return text ?? undefined;
    } catch {
      const detail = await operationDetail(entry.doc, key);
      return detail === undefined ? undefined : JSON.stringify(detail);
    }
  }
  return details.get(`${document}:${key}`, compute);
}
