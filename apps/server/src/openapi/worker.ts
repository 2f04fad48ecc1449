import { shareText, type SharedText } from '../lib/text-pieces.ts';
import { OpenApiImportError, type DocumentProblem } from './problems.ts';
import { processOpenApi, type PreparedDocument, type ProcessOptions } from './process.ts';
import { operationSearchEntries, type OperationSearchEntry } from './search-entries.ts';
import type { Obj } from './operations.ts';

/**
 * Runs in the worker threads of pool.ts: the whole import pipeline (parse, validate, convert,
 * index, serialize) away from the event loop. Answers the stored form only (texts, no object graph
 * to copy back); a refused document comes back as its problems, since errors lose their fields
 * between threads.
 */
export type WorkerAnswer =
  | {
      ok: true;
      prepared: PreparedDocument;
      /**
       * The source as decoded here, when it came as bytes (an upload): the main thread stores it
       * without decoding it itself (a SharedText when longer than a stored row).
       */
      source?: string | SharedText;
    }
  | { ok: false; summary: string; problems: DocumentProblem[] };

export default async function prepare(task: {
  /** The source, or its UTF-8 bytes (moved here from the main thread: pool.ts prepareDocument). */
  source?: string;
  utf8?: Uint8Array;
  options: ProcessOptions;
  /** A converted text longer than this goes back as a SharedText of pieces this long. */
  pieceChars: number;
}): Promise<WorkerAnswer> {
  try {
    const source =
      task.source ??
      Buffer.from(task.utf8!.buffer, task.utf8!.byteOffset, task.utf8!.byteLength).toString('utf8');
    const {
      converted: _converted,
      operationIndex: _operationIndex,
      convertedText,
      operationIndexText,
      ...rest
    } = await processOpenApi(source, task.options);
    const pieces = (text: string) =>
      text.length > task.pieceChars ? shareText(text, task.pieceChars) : text;
    const prepared: PreparedDocument = {
      ...rest,
      convertedText: pieces(convertedText),
      operationIndexText: pieces(operationIndexText),
    };
    return task.source === undefined
      ? { ok: true, prepared, source: pieces(source) }
      : { ok: true, prepared };
  } catch (err) {
    if (err instanceof OpenApiImportError) {
      return { ok: false, summary: err.message.split('\n')[0]!, problems: err.problems };
    }
    throw err;
  }
}

/** The site search's view of a stored document's operations (pool.ts documentSearchEntries). */
export function searchEntries(task: { chunks: string[] }): OperationSearchEntry[] {
  return operationSearchEntries(JSON.parse(task.chunks.join('')) as Obj);
}
