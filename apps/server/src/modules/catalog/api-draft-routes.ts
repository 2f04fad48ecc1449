import { CHANGELOG_TEXT_MAX } from '@portico/contracts/api-drafts';
import { format } from '@portico/contracts/format';
import { en } from '@portico/contracts/messages';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { HttpError } from '../../lib/errors.ts';
import { acceptBytes, bodyTooLarge } from '../../lib/raw-body.ts';
import { nextTurn } from '../../lib/turns.ts';
import { MAX_SOURCE_BYTES, OpenApiImportError } from '../../openapi/index.ts';
import { requireProviderRole } from '../../plugins/session.ts';
import { actorOf } from '../audit/service.ts';
import {
  createDraft,
  draftAnswer,
  discardDraft,
  DraftGoneError,
  DraftStateError,
  findDraft,
  listApis,
  publishDraft,
} from './api-drafts.ts';
import { draftIndexText, draftOperationText, findPreviewedDraft } from './draft-preview.ts';
import { problemsError } from './import-routes.ts';
import { checkDocumentationAlias, DocumentationInputError } from './store.ts';
import { catalogDb } from './tables.ts';

const M = en.console.apis;
const MAX_MB = MAX_SOURCE_BYTES / 1024 / 1024;

/** Every route here is the API managers' (and administrators'). */
export const requireApiManager = (request: FastifyRequest) =>
  requireProviderRole(request, 'api_manager', M.managersOnly);

/** The alias of the path, checked as the importer checks it: a 404 for one that cannot exist. */
function aliasOf(value: string): string {
  try {
    return checkDocumentationAlias(value);
  } catch (err) {
    if (err instanceof DocumentationInputError)
      throw new HttpError(404, format(M.errors.noSuchApi, { alias: value }));
    throw err;
  }
}

/**
 * The console's API versions (issue 27, decision 047): the list of APIs, a new version uploaded as
 * a draft and compared with the published one, and its publication with a changelog entry.
 */
export async function apiDraftRoutes(app: FastifyInstance): Promise<void> {
  app.get('/admin-api/catalog/apis', async (request, reply) => {
    requireApiManager(request);
    reply.header('Cache-Control', 'no-store');
    return { data: await listApis(app.db) };
  });

  app.get<{ Params: { alias: string; id: string } }>(
    '/admin-api/catalog/apis/:alias/drafts/:id',
    async (request, reply) => {
      requireApiManager(request);
      const draft = await findDraft(app.db, aliasOf(request.params.alias), request.params.id);
      if (!draft) throw new HttpError(404, M.errors.noSuchDraft);
      reply.header('Cache-Control', 'no-store');
      return { data: await draftAnswer(app.db, draft) };
    },
  );

  // The draft's documentation before it is published (issue 27): the published reference's answers
  // (`/api/apidocs/:alias/index`, `/operations/:key`), made by the same code from the draft's
  // document (draft-preview.ts), for the console's preview page. Never cached, never indexed.
  const previewOf = async (request: FastifyRequest<{ Params: { alias: string; id: string } }>) => {
    requireApiManager(request);
    const draft = await findPreviewedDraft(app.db, aliasOf(request.params.alias), request.params.id);
    if (!draft) throw new HttpError(404, M.errors.noSuchDraft);
    return draft;
  };
  const privately = (reply: FastifyReply) =>
    reply
      .header('Cache-Control', 'no-store')
      .header('X-Robots-Tag', 'noindex, nofollow')
      .type('application/json; charset=utf-8');

  app.get<{ Params: { alias: string; id: string } }>(
    '/admin-api/catalog/apis/:alias/drafts/:id/documentation/index',
    async (request, reply) => {
      const draft = await previewOf(request);
      return privately(reply).send(await draftIndexText(app.db, draft, app.config.publicUrl));
    },
  );

  app.get<{ Params: { alias: string; id: string; key: string } }>(
    '/admin-api/catalog/apis/:alias/drafts/:id/documentation/operations/:key',
    async (request, reply) => {
      const draft = await previewOf(request);
      const text = await draftOperationText(app.db, draft, app.config.publicUrl, request.params.key);
      if (text === undefined) throw new HttpError(404, en.catalog.operationNotFound);
      return privately(reply).send(text);
    },
  );

  app.post<{ Params: { alias: string; id: string } }>(
    '/admin-api/catalog/apis/:alias/drafts/:id/publish',
    async (request, reply) => {
      requireApiManager(request);
      const draft = await findDraft(app.db, aliasOf(request.params.alias), request.params.id);
      if (!draft) throw new HttpError(404, M.errors.noSuchDraft);
      const body = (request.body ?? {}) as Record<string, unknown>;
      const changelog = typeof body.changelog === 'string' ? body.changelog.trim() : '';
      if (!changelog) throw new HttpError(422, M.errors.textRequired, { pointer: '/changelog' });
      if (changelog.length > CHANGELOG_TEXT_MAX) {
        throw new HttpError(422, format(M.errors.textTooLong, { max: CHANGELOG_TEXT_MAX }), {
          pointer: '/changelog',
        });
      }
      const version =
        typeof body.version === 'string' && body.version.trim()
          ? body.version.trim().slice(0, 64)
          : undefined;
      try {
        const published = await publishDraft(
          app.db,
          actorOf(request),
          draft,
          { changelog, version },
          app.config.publicUrl,
        );
        return reply.send({ data: await draftAnswer(app.db, published) });
      } catch (err) {
        if (err instanceof DraftStateError) throw new HttpError(409, err.message);
        if (err instanceof DraftGoneError) throw new HttpError(404, err.message);
        throw err;
      }
    },
  );

  // A draft never published is discarded (its row, and its preview's kept document); a published
  // one stays: 409.
  app.delete<{ Params: { alias: string; id: string } }>(
    '/admin-api/catalog/apis/:alias/drafts/:id',
    async (request, reply) => {
      requireApiManager(request);
      const draft = await findDraft(app.db, aliasOf(request.params.alias), request.params.id);
      if (!draft) throw new HttpError(404, M.errors.noSuchDraft);
      try {
        await discardDraft(app.db, actorOf(request), draft);
      } catch (err) {
        if (err instanceof DraftStateError) throw new HttpError(409, err.message);
        if (err instanceof DraftGoneError) throw new HttpError(404, err.message);
        throw err;
      }
      return reply.status(204).send();
    },
  );

  await app.register(async (scope) => {
    // Whatever the content type (YAML, JSON, octet-stream, none), the body is the document's bytes,
    // as the import's (decision 033).
    scope.removeAllContentTypeParsers();
    acceptBytes(scope, '*', MAX_SOURCE_BYTES);
    scope.post<{ Params: { alias: string }; Querystring: Record<string, unknown> }>(
      '/admin-api/catalog/apis/:alias/drafts',
      {
        bodyLimit: MAX_SOURCE_BYTES,
        onRequest: async (request) => {
          requireApiManager(request);
        },
        errorHandler: bodyTooLarge(
          () =>
            new HttpError(413, format(en.apiImport.tooLarge, { max: MAX_MB }), { code: 'payload_too_large' }),
        ),
      },
      async (request, reply) => {
        const alias = aliasOf(request.params.alias);
        const q = request.query ?? {};
        for (const key of Object.keys(q)) {
          if (key !== 'product' && key !== 'filename') {
            throw new HttpError(400, `Unknown parameter '${key}'.`, { parameter: key });
          }
          if (typeof q[key] !== 'string') throw new HttpError(400, `Give '${key}' once.`, { parameter: key });
        }
        const product = typeof q.product === 'string' && q.product.trim() ? q.product.trim() : undefined;
        const filename =
          typeof q.filename === 'string' && q.filename.trim() ? q.filename.trim().slice(0, 255) : undefined;
        const body = request.body;
        if (!Buffer.isBuffer(body) || body.length === 0) throw new HttpError(422, en.apiImport.emptyDocument);
        if (body.indexOf(0) >= 0) throw new HttpError(422, en.apiImport.nulByte);
        const known = await catalogDb(app.db)
          .selectFrom('api_documentations')
          .select('id')
          .where('alias', '=', alias)
          .executeTakeFirst();
        if (!known && !product) throw new HttpError(400, M.errors.productRequired, { parameter: 'product' });
        const text = body.toString('utf8');
        await nextTurn();
        try {
          const row = await createDraft(
            app.db,
            actorOf(request),
            { alias, product, filename, text, utf8: body },
            app.config.publicUrl,
          );
          reply.header('Cache-Control', 'no-store');
          return reply.status(201).send({ data: await draftAnswer(app.db, row) });
        } catch (err) {
          if (err instanceof OpenApiImportError) throw problemsError(err);
          if (err instanceof DocumentationInputError)
            throw new HttpError(400, err.message, { parameter: 'product' });
          throw err;
        }
      },
    );
  });
}
