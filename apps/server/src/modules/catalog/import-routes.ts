import { apiImportOptionsSchema, defaultApiAlias, type ApiImportResult } from '@portico/contracts/api-import';
import { format } from '@portico/contracts/format';
import { en } from '@portico/contracts/messages';
import type { FastifyInstance } from 'fastify';
import { HttpErrorList } from '../../jsonapi/errors.ts';
import { HttpError } from '../../lib/errors.ts';
import { acceptBytes, bodyTooLarge } from '../../lib/raw-body.ts';
import { requireProviderRole } from '../../plugins/session.ts';
import { importApi, prepareUploadedApiImport, type ImportApiResult } from './import-api.ts';
import { MAX_SOURCE_BYTES, OpenApiImportError } from '../../openapi/index.ts';
import { DocumentationInputError } from './store.ts';

const M = en.apiImport;
const MAX_MB = MAX_SOURCE_BYTES / 1024 / 1024;

/**
 * `POST /admin-api/catalog/import-api?product=<alias>[&alias][&title][&apiId][&plan][&deprecated]
 * [&category][&filename]`: the `import-api` command from the portal, for provider administrators
 * (decision 033). The document is the raw body (any content type); the options are the query, as
 * the command's flags. The document is processed in the import worker threads, never on the event
 * loop, and answers what the command prints (ApiImportResult).
 */
export async function importRoutes(app: FastifyInstance): Promise<void> {
  // The aliases being imported by this process: a second import of one of them is refused at once
  // (409) instead of racing the first; across instances the store's upsert keeps one whole document.
  const running = new Set<string>();

  await app.register(async (scope) => {
    // Whatever the content type (YAML, JSON, octet-stream, none), the body is the document's bytes.
    scope.removeAllContentTypeParsers();
    acceptBytes(scope, '*', MAX_SOURCE_BYTES);
    scope.post(
      '/admin-api/catalog/import-api',
      {
        bodyLimit: MAX_SOURCE_BYTES,
        // Who asks is checked before the body (up to 64 MB) is read; a Content-Length over the
        // limit is refused before reading too (Fastify's body limit), a longer stream as it comes.
        onRequest: async (request) => {
          requireProviderRole(request, 'api_manager', M.adminsOnly);
        },
        errorHandler: bodyTooLarge(
          () => new HttpError(413, format(M.tooLarge, { max: MAX_MB }), { code: 'payload_too_large' }),
        ),
      },
      async (request, reply) => {
        const options = parseOptions(request.query);
        const body = request.body;
        if (!Buffer.isBuffer(body) || body.length === 0) throw new HttpError(422, M.emptyDocument);
        // memchr, not a scan of the decoded text: PostgreSQL's text cannot hold NUL.
        if (body.indexOf(0) >= 0) throw new HttpError(422, M.nulByte);
        // Without a file name the alias names it, with no extension: the parser tells JSON from YAML itself.
        const name = options.filename ?? options.alias ?? options.product;
        const alias = options.alias ?? defaultApiAlias(name);
        if (running.has(alias)) throw new HttpError(409, format(M.busy, { alias }));
        running.add(alias);
        let result: ImportApiResult;
        try {
          // The worker pool (openapi/pool.ts), not inline: seconds of CPU for a big document. The
          // bytes move to the worker, which decodes them; this thread never holds the whole text
          // (decision 061).
          const prepared = await prepareUploadedApiImport(
            { name, utf8: body },
            options,
            app.config.publicUrl,
          );
          result = await importApi(app.db, prepared);
        } catch (err) {
          if (err instanceof OpenApiImportError) throw problemsError(err);
          if (err instanceof DocumentationInputError) {
            throw new HttpError(400, err.message, { parameter: options.alias ? 'alias' : 'filename' });
          }
          throw err;
        } finally {
          running.delete(alias);
        }
        reply.header('Cache-Control', 'no-store');
        return reply
          .status(result.documentation.status === 'created' ? 201 : 200)
          .send({ data: importAnswer(result, app.config.publicUrl) });
      },
    );
  });
}

type Options = ReturnType<typeof apiImportOptionsSchema.parse> & { filename?: string };

/** The query as the command's options; a 400 naming the first parameter at fault. */
function parseOptions(query: unknown): Options {
  const q = (query ?? {}) as Record<string, unknown>;
  const known = new Set([...Object.keys(apiImportOptionsSchema.shape), 'filename']);
  for (const key of Object.keys(q)) {
    if (!known.has(key)) throw new HttpError(400, `Unknown parameter '${key}'.`, { parameter: key });
    if (typeof q[key] !== 'string') {
      throw new HttpError(400, `Give '${key}' once.`, { parameter: key });
    }
  }
  const parsed = apiImportOptionsSchema.safeParse(q, { reportInput: true });
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new HttpError(400, issue.message, { parameter: String(issue.path[0] ?? ''), issues: [issue] });
  }
  const filename = typeof q.filename === 'string' ? q.filename.trim() : '';
  if (filename.length > 255)
    throw new HttpError(400, format(M.tooLong, { max: 255 }), { parameter: 'filename' });
  return { ...parsed.data, ...(filename ? { filename } : {}) };
}

/** The importer's problems, one JSON:API error each, with the JSON pointer and line in the document. */
export function problemsError(err: OpenApiImportError): HttpErrorList {
  const [summary] = err.message.split('\n');
  return new HttpErrorList(
    422,
    summary!,
    err.problems.map((p) => ({
      detail: p.message,
      pointer: p.path || '/',
      ...(p.line ? { meta: { line: p.line, ...(p.column ? { column: p.column } : {}) } } : {}),
    })),
    { code: 'invalid_document' },
  );
}

/** What the `import-api` command prints, as data. */
function importAnswer(result: ImportApiResult, publicUrl: string): ApiImportResult {
  const { documentation: d, product: p } = result;
  const index = d.processed?.operations;
  return {
    status: d.status,
    documentation: {
      uuid: d.uuid,
      alias: d.alias,
      title: d.title,
      sourceSpecVersion: d.processed?.sourceSpecVersion ?? null,
      operationCount: index?.operationCount ?? null,
      tags: index?.tags ?? [],
      webhookCount: index?.webhookCount ?? 0,
    },
    product: { uuid: p.uuid, alias: p.alias, title: p.title, created: p.created, category: p.category },
    links: {
      documentation: `${publicUrl}/documentation/${d.alias}`,
      product: `${publicUrl}/apiProduct/${p.alias}`,
      sandbox: `${publicUrl}/sandbox/${d.alias}`,
    },
  };
}
