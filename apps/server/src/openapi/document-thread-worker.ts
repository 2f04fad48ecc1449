import { parentPort } from 'node:worker_threads';
import { LRUCache } from 'lru-cache';
import { lowerThisThreadsPriority } from '../lib/thread-priority.ts';

/**
 * The stored documents' thread (document-thread.ts, decision 070): it keeps parsed documents by
 * key and runs tasks on them. Here a document is parsed whole (JSON.parse of its rows joined):
 * this thread answers no request, so a long turn holds nobody.
 */

/**
 * Parsed documents kept, bounded by the size of their JSON text (a parsed document takes a few
 * times that on this thread's heap).
 */
export const DOCUMENT_CACHE_CHARS = 96 * 1024 * 1024;

export interface DocumentThreadRequest {
  id: number;
  key: string;
  /** The document's rows, when the main thread hands it over. */
  rows?: string[];
  /** A task on the document of `key`; answered `missing` when it is not kept. */
  task?: { module: string; name: string; args: unknown };
  /** Forget the documents whose keys start with this. */
  forget?: string;
  /** Load these task modules now (a warm-up: the first task then finds them loaded). */
  warm?: string[];
}

export interface DocumentThreadReply {
  id: number;
  value?: unknown;
  /** The document of the task's key is not kept: hand it over (rows) and ask again. */
  missing?: true;
  /** The rows handed over are no JSON object: there is no document. */
  empty?: true;
  error?: string;
}

type Task = (doc: Record<string, unknown>, args: unknown) => unknown;

if (parentPort) {
  const port = parentPort;
  // Below the thread that answers requests when both want a core (decision 066).
  lowerThisThreadsPriority();
  const documents = new LRUCache<string, Record<string, unknown>>({ maxSize: DOCUMENT_CACHE_CHARS });
  const modules = new Map<string, Promise<Record<string, unknown>>>();

  function loaded(module: string): Promise<Record<string, unknown>> {
    let loading = modules.get(module);
    if (!loading) {
      loading = import(module) as Promise<Record<string, unknown>>;
      modules.set(module, loading);
      loading.catch(() => modules.delete(module));
    }
    return loading;
  }

  async function answer(request: DocumentThreadRequest): Promise<Omit<DocumentThreadReply, 'id'>> {
    if (request.warm) {
      await Promise.all(request.warm.map(loaded));
      return {};
    }
    if (request.forget !== undefined) {
      for (const key of [...documents.keys()]) if (key.startsWith(request.forget)) documents.delete(key);
      return {};
    }
    if (request.rows) {
      const chars = request.rows.reduce((n, row) => n + row.length, 0);
      const doc: unknown = JSON.parse(request.rows.join(''));
      if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) return { empty: true };
      documents.set(request.key, doc as Record<string, unknown>, {
        size: Math.max(1, Math.min(chars, DOCUMENT_CACHE_CHARS)),
      });
      return {};
    }
    const doc = documents.get(request.key);
    if (!doc) return { missing: true };
    const { module, name, args } = request.task!;
    const task = (await loaded(module))[name];
    if (typeof task !== 'function') throw new Error(`${module} has no task ${name}`);
    return { value: await (task as Task)(doc, args) };
  }

  port.on('message', (request: DocumentThreadRequest) => {
    answer(request).then(
      (reply) => port.postMessage({ ...reply, id: request.id }),
      (err: unknown) => port.postMessage({ id: request.id, error: String((err as Error)?.stack ?? err) }),
    );
  });
}
