import { createHash } from 'node:crypto';
import type { OperationIndex } from '@portico/contracts/catalog';
import { buildOperationIndex, isObj, type Obj } from './operations.ts';
import type { SharedText } from '../lib/text-pieces.ts';
import { parseSource, type SourceFormat } from './parse.ts';
import { locateProblems, OpenApiImportError } from './problems.ts';
import { withPublicUrls } from './public-urls.ts';
import { operationSearchEntries, type OperationSearchEntry } from './search-entries.ts';
import { upgrade30To31 } from './upgrade.ts';
import { detectVersion, validateDocument } from './validate.ts';

export interface ProcessOptions {
  /** The documentation alias: the sandbox answers at `${publicUrl}/sandbox/<alias>`. */
  alias: string;
  publicUrl: string;
  /** Helps tell JSON from YAML and appears in messages. */
  filename?: string;
}

export interface ProcessedDocument {
  sourceFormat: SourceFormat;
  /** What the source was: 'swagger 2.0', 'openapi 3.0.3', 'openapi 3.1.0'. */
  sourceSpecVersion: string;
  /** OpenAPI 3.1, bundled: its `$ref`s kept as written (decision 017). */
  converted: Obj;
  /** `converted` as JSON, as stored and hashed. */
  convertedText: string;
  /**
   * What SQL reads of `converted` (its servers, security requirements and schemes) as JSON: the
   * `converted` column of a document whose text is kept in rows (document-texts.ts).
   */
  digestText: string;
  operationIndex: OperationIndex;
  /** `operationIndex` as JSON, as stored (for the server's own reading, a column or rows). */
  operationIndexText: string;
  /** What an import reports of the index (its answer and the command's output). */
  operations: OperationsSummary;
  /**
   * The operations as the site search indexes them (catalog/search-sync.ts), made where the
   * document is processed: the importer indexes them without reading the stored text back,
   * sending it to a worker and parsing it again.
   */
  searchEntries: OperationSearchEntry[];
  contentHash: string;
  info: { title: string | null; version: string | null; description: string | null };
  /** The document's `info` and top-level `externalDocs` as written: a new product's description. */
  about: { info: Obj; externalDocs: Obj | null };
}

export interface OperationsSummary {
  operationCount: number;
  webhookCount: number;
  tags: string[];
}

/**
 * What is stored of a processed document: all of it but the converted object and the operation
 * index as an object (their texts are kept). From a worker thread (pool.ts), a text longer than a
 * stored row is a SharedText in pieces of one row (lib/text-pieces.ts), decoded as the rows are
 * written: neither is copied into the main thread in one piece nor written there in one statement.
 */
export type PreparedDocument = Omit<
  ProcessedDocument,
  'converted' | 'convertedText' | 'operationIndex' | 'operationIndexText'
> & {
  convertedText: string | SharedText;
  operationIndexText: string | SharedText;
};

const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

/**
 * The parts of a converted document that SQL reads (store.ts: the sandbox server; scopes.ts: the
 * security requirements of the document and of each operation, and the security schemes), in
 * the document's shape, so the same queries work on it and on a whole document.
 */
export function documentDigest(doc: Obj): Obj {
  const paths: Obj = {};
  for (const [path, item] of Object.entries(isObj(doc.paths) ? doc.paths : {})) {
    if (!isObj(item)) continue;
    const operations: Obj = {};
    for (const [member, op] of Object.entries(item)) {
      if (isObj(op) && op.security !== undefined) operations[member] = { security: op.security };
    }
    if (Object.keys(operations).length) paths[path] = operations;
  }
  const components = isObj(doc.components) ? doc.components : {};
  return {
    ...(doc.openapi !== undefined ? { openapi: doc.openapi } : {}),
    ...(doc.servers !== undefined ? { servers: doc.servers } : {}),
    ...(doc.security !== undefined ? { security: doc.security } : {}),
    ...(components.securitySchemes !== undefined
      ? { components: { securitySchemes: components.securitySchemes } }
      : {}),
    paths,
  };
}

/** sha256 of the converted document as stored. */
export function hashDocument(doc: unknown): string {
  return createHash('sha256').update(JSON.stringify(doc)).digest('hex');
}

/**
 * The import pipeline: read JSON or YAML, validate the document as written (so problems point
 * into the author's own text), convert Swagger 2.0 (swagger2openapi) and OpenAPI 3.0 (upgrade.ts)
 * to 3.1, point servers and OAuth URLs at this portal, hash, and index the operations. The
 * document stays bundled (its `$ref`s kept). Throws OpenApiImportError with located problems.
 */
export async function processOpenApi(source: string, options: ProcessOptions): Promise<ProcessedDocument> {
  try {
    const { format, doc } = parseSource(source, options.filename);
    const version = detectVersion(doc);
    await validateDocument(doc);

    let v3: Obj;
    if (version.kind === 'swagger') {
      // The converter (about 4 MB of heap) is loaded by the first Swagger 2.0 document only.
      const { default: s2o } = await import('swagger2openapi');
      try {
        const result = await s2o.convertObj(
          doc as never,
          { patch: true, warnOnly: true, resolve: false } as never,
        );
        v3 = result.openapi as unknown as Obj;
      } catch (err) {
        throw new OpenApiImportError('The Swagger 2.0 document cannot be converted.', [
          { path: '', message: (err as Error).message.split('\n')[0]! },
        ]);
      }
      upgrade30To31(v3);
    } else if (version.version.startsWith('3.0')) {
      v3 = upgrade30To31(doc);
    } else {
      v3 = doc;
    }

    // Stored bundled: every `$ref` kept (decision 017); what one operation needs is resolved when
    // it is asked for (slice.ts).
    const converted = withPublicUrls(v3, options.publicUrl, options.alias);
    const convertedText = JSON.stringify(converted);
    const contentHash = createHash('sha256').update(convertedText).digest('hex');
    const info = isObj(converted.info) ? converted.info : {};
    const operationIndex = buildOperationIndex(converted, options.alias, contentHash);
    return {
      sourceFormat: format,
      sourceSpecVersion: `${version.kind} ${version.version}`,
      converted,
      convertedText,
      digestText: JSON.stringify(documentDigest(converted)),
      operationIndex,
      operationIndexText: JSON.stringify(operationIndex),
      operations: {
        operationCount: operationIndex.operationCount,
        webhookCount: operationIndex.webhookCount ?? 0,
        tags: operationIndex.tags.map((t) => t.name),
      },
      searchEntries: operationSearchEntries(converted),
      contentHash,
      info: { title: str(info.title), version: str(info.version), description: str(info.description) },
      about: { info, externalDocs: isObj(converted.externalDocs) ? converted.externalDocs : null },
    };
  } catch (err) {
    if (err instanceof OpenApiImportError) {
      throw new OpenApiImportError(err.message.split('\n')[0]!, locateProblems(source, err.problems));
    }
    throw err;
  }
}
