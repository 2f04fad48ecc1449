import { HTTP_METHODS, isObject, type OpenApiDocument } from '../openapi/document.ts';
import type { Obj } from '../openapi/operations.ts';
import { cutOperationSlice } from '../openapi/slice.ts';

/**
 * The sandbox's tasks on a parsed stored document, run in the stored documents' thread
 * (openapi/document-thread.ts, decision 070): only their small answers come to the thread that
 * answers requests, never the document.
 */

/**
 * What the sandbox's router needs of a document: its servers (base paths) and, per path template,
 * which methods it documents. The operations themselves are empty: a call's operation comes from
 * its slice (operationCut), matched again there.
 */
export function routeTable(doc: Obj): OpenApiDocument {
  const paths: Record<string, Record<string, object>> = {};
  for (const [template, item] of Object.entries(isObject(doc.paths) ? doc.paths : {})) {
    if (!isObject(item)) continue;
    const methods: Record<string, object> = {};
    for (const method of HTTP_METHODS) if (isObject(item[method])) methods[method] = {};
    paths[template] = methods;
  }
  return { openapi: doc.openapi, servers: doc.servers, paths } as OpenApiDocument;
}

/** One operation's slice, cut (not dereferenced): the document pool dereferences it (slice-task.ts). */
export function operationCut(doc: Obj, args: { method: string; template: string }): Obj {
  return cutOperationSlice(doc, args.method, args.template);
}
