import { Readable } from 'node:stream';
import { timeSlices } from '../../lib/turns.ts';
import { LRUCache } from 'lru-cache';
import type { Db } from '../../db/client.ts';
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

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Strings written without quotes: nothing YAML could read as another type or as syntax. */
const PLAIN = /^[A-Za-z_/][A-Za-z0-9_ ./()-]*$/;
const RESERVED = /^(?:true|false|null|yes|no|on|off|y|n|~)$/i;

/** Dotted versions ('3.1.0'): no YAML schema reads them as anything but a string. */
const VERSION = /^\d+\.\d+\.\d+$/;

function scalar(v: string): string {
  if (VERSION.test(v)) return v;
  if (v !== '' && PLAIN.test(v) && !RESERVED.test(v) && !v.endsWith(' ') && !v.includes(' #')) return v;
  // A JSON string is a YAML double-quoted scalar.
  return JSON.stringify(v);
}

/** A multi-line string as a literal block, when one can hold it exactly; else undefined. */
function literal(v: string, pad: string): string | undefined {
  if (!v.includes('\n') || /^[ \n]|\r|[^\n\t\x20-\x7e\u00a0-\ud7ff\ue000-\ufffd]|\n\n$|[ \t]\n/.test(v))
    return undefined;
  const body = v.endsWith('\n') ? v.slice(0, -1) : v;
  if (/[ \t]$/.test(body)) return undefined;
  const lines = body.split('\n').map((l) => (l ? `${pad}${l}` : ''));
  return `${v.endsWith('\n') ? '|' : '|-'}\n${lines.join('\n')}`;
}

function value(v: unknown, pad: string): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'string') return literal(v, pad) ?? scalar(v);
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return JSON.stringify(v);
}

/**
 * YAML (block style) of a JSON value, one piece per member of the top three levels, written
 * without a YAML library: `yaml` takes over a second per megabyte, too slow for a 13 MB document.
 * JSON strings are valid YAML double-quoted scalars; multi-line text becomes a literal block.
 */
function* yamlPieces(v: unknown, pad: string, depth: number): Generator<string> {
  if (isPlainObject(v)) {
    for (const [k, item] of Object.entries(v)) {
      const key = `${pad}${scalar(k)}:`;
      if (isPlainObject(item) && Object.keys(item).length) {
        yield `${key}\n`;
        if (depth < 3) yield* yamlPieces(item, `${pad}  `, depth + 1);
        else yield [...yamlPieces(item, `${pad}  `, depth + 1)].join('');
      } else if (Array.isArray(item) && item.length) {
        yield `${key}\n${[...yamlPieces(item, pad, depth + 1)].join('')}`;
      } else yield `${key} ${value(item, `${pad}  `)}\n`;
    }
  } else if (Array.isArray(v)) {
    for (const item of v) {
      if (
        (isPlainObject(item) || Array.isArray(item)) &&
        (Array.isArray(item) ? item.length : Object.keys(item).length)
      ) {
        // The first member goes on the dash's line.
        const inner = [...yamlPieces(item, `${pad}  `, depth + 1)].join('');
        yield `${pad}- ${inner.slice(pad.length + 2)}`;
      } else yield `${pad}- ${value(item, `${pad}  `)}\n`;
    }
  } else yield `${pad}${value(v, `${pad}  `)}\n`;
}

/**
 * The YAML of a document, written a piece at a time with a turn of the event loop between pieces,
 * so writing a big document never holds the server.
 */
export function yamlStream(doc: Record<string, unknown>): Readable {
  async function* chunks() {
    const breathe = timeSlices();
    const parts: string[] = [];
    let size = 0;
    for (const piece of yamlPieces(doc, '', 0)) {
      parts.push(piece);
      size += piece.length;
      if (size >= 256 * 1024) {
        yield parts.join('');
        parts.length = 0;
        size = 0;
      }
      await breathe();
    }
    if (parts.length) yield parts.join('');
  }
  return Readable.from(chunks(), { objectMode: false });
}

const DETAIL_TASK = new URL('./detail-task.ts', import.meta.url);

/** Operation details as JSON text, by document and key; bounded by their total size. */
const details = new LRUCache<string, Promise<string | undefined>>({
  maxSize: 32 * 1024 * 1024,
  sizeCalculation: () => 1,
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
  const cacheKey = `${document}:${key}`;
  const hit = details.get(cacheKey);
  if (hit) return hit;
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
  const computing: Promise<string | undefined> = compute().then((text) => {
    if (text !== undefined && details.get(cacheKey) === computing) {
      details.set(cacheKey, computing, { size: Math.max(1, text.length) });
    }
    return text;
  });
  details.set(cacheKey, computing);
  computing.catch(() => details.delete(cacheKey));
  return computing;
}
