import { en } from '@portico/contracts/messages';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import { collectionDocument, requestUrl, resourceDocument, sendDocument } from '../../jsonapi/document.ts';
import type { ResourceObject } from '../../jsonapi/document.ts';
import { fetchCollection } from '../../jsonapi/kysely.ts';
import { parseJsonApiQuery } from '../../jsonapi/query.ts';
import { checkFields, checkIncludes, values, type ResourceDescription } from '../../jsonapi/resource.ts';
import { HttpError } from '../../lib/errors.ts';
import { readDocumentText } from '../../openapi/document-texts.ts';
import { markerOf, readerLocale } from '../../lib/translations.ts';
import type { OperationIndex } from '@portico/contracts/catalog';
import type { Locale } from '@portico/contracts/locales';
import {
  documentationTitles,
  documentationTranslation,
  translatedIndex,
} from './documentation-translations.ts';
import { operationDetailText, storedTextStream, yamlDownload } from './downloads.ts';
import { PAGE, SPARSE_FIELDS, originOf } from './product-routes.ts';
import {
  DOCUMENTATION_COLUMNS,
  documentationRow,
  findDocumentation,
  loadDocumentationRelations,
  loadProductRelations,
  type ProductRow,
} from './repo.ts';
import { changeLogResource, documentationResource, productImages, productResource } from './resources.ts';
import { catalogDb, type CatalogTables } from './tables.ts';
import { normalizeAlias } from './versions.ts';

const M = en.catalog;
const DOC_INCLUDES = ['field_products', 'field_products.field_image', 'field_change_log'];

type DocDb = CatalogTables & { d: CatalogTables['api_documentations'] };

const documentationCollection: ResourceDescription<DocDb, 'd'> = {
  type: 'node--api_documentation',
  fields: {
    id: { sql: 'd.uuid', value: values.uuid, sort: false },
    title: { sql: 'd.title', value: values.text },
    'path.alias': { sql: { expression: () => sql`'/' || d.alias` }, value: values.text, sort: false },
    field_api_id: { sql: 'd.api_id', value: values.text },
    field_deprecated: { sql: 'd.deprecated', value: values.boolean, sort: false },
    'field_products.id': {
      sql: {
        exists: (eb, test) =>
          eb.exists(
            eb
              .selectFrom('api_product_documentations as fpd')
              .innerJoin('api_products as fp', 'fp.id', 'fpd.product_id')
              .select(sql`1`.as('one'))
              .whereRef('fpd.documentation_id', '=', 'd.id')
              .where(() => test(sql.ref('fp.uuid'))),
          ),
      },
      value: values.uuid,
    },
    created: { sql: 'd.created', value: values.timestamp },
    changed: { sql: 'd.changed', value: values.timestamp },
  },
  tiebreaker: 'd.id',
  defaultSort: [{ path: 'title', direction: 'ASC' }],
  includes: DOC_INCLUDES,
  sparseFields: SPARSE_FIELDS,
};

function etagMatches(request: FastifyRequest, etag: string): boolean {
  const header = request.headers['if-none-match'];
  return typeof header === 'string' && header.split(',').some((t) => t.trim().replace(/^W\//, '') === etag);
}

export async function documentationRoutes(app: FastifyInstance): Promise<void> {
  const db = catalogDb(app.db);

  async function included(
    base: string,
    include: readonly string[],
    rel: Awaited<ReturnType<typeof loadDocumentationRelations>>,
  ): Promise<ResourceObject[] | undefined> {
    if (!include.length) return undefined;
    const out: ResourceObject[] = [];
    const products = new Map<number, ProductRow>();
    for (const list of rel.products.values()) for (const p of list) products.set(p.id, p);
    if (include.includes('field_products') || include.includes('field_products.field_image')) {
      const productRel = await loadProductRelations(app.db, [...products.values()]);
      for (const p of products.values()) {
        out.push(productResource(base, p, productRel));
        if (include.includes('field_products.field_image'))
          out.push(...productImages(base, p, 'field_image'));
      }
    }
    if (include.includes('field_change_log')) {
      for (const list of rel.changeLog.values())
        for (const e of list) out.push(changeLogResource(base, e, e.product_uuid));
    }
    return out;
  }

  /**
   * Documentations in the reader's language (decision 063): a translation's title where one
   * exists, else the default language's, marked as a fallback (`meta.translation`).
   */
  async function inLanguage(
    base: string,
    docs: readonly ReturnType<typeof documentationRow>[],
    rel: Awaited<ReturnType<typeof loadDocumentationRelations>>,
    langcode: Locale,
  ): Promise<ResourceObject[]> {
    const titles = await documentationTitles(
      app.db,
      docs.map((d) => d.uuid),
      langcode,
    );
    return docs.map((d) => {
      const title = titles.get(d.uuid);
      const resource = documentationResource(base, title ? { ...d, title } : d, {
        products: rel.products.get(d.id) ?? [],
        changeLog: rel.changeLog.get(d.id) ?? [],
      });
      return { ...resource, meta: { ...resource.meta, translation: markerOf(langcode, !!title) } };
    });
  }

  app.get('/jsonapi/node/api_documentation', async (request, reply) => {
    const query = parseJsonApiQuery(request.query, { ...PAGE, extraParameters: ['langcode'] });
    const langcode = readerLocale(query.extra.langcode);
    const { rows, count } = await fetchCollection(
      app.db,
      db.selectFrom('api_documentations as d').select(DOCUMENTATION_COLUMNS),
      documentationCollection,
      query,
    );
    const docs = rows.map((r) => documentationRow(r));
    const rel = await loadDocumentationRelations(app.db, docs);
    const base = originOf(request);
    return sendDocument(
      reply,
      collectionDocument({
        url: requestUrl(request),
        data: await inLanguage(base, docs, rel, langcode),
        count,
        page: query.page,
        included: await included(base, query.include, rel),
        fields: query.fields,
      }),
    );
  });

  app.get<{ Params: { id: string } }>('/jsonapi/node/api_documentation/:id', async (request, reply) => {
    const query = parseJsonApiQuery(request.query, { ...PAGE, unknownParameters: 'ignore' });
    checkIncludes({ type: 'node--api_documentation', includes: DOC_INCLUDES }, query.include);
    checkFields({ sparseFields: SPARSE_FIELDS }, query.fields);
    const langcode = readerLocale((request.query as Record<string, unknown>).langcode);
    const doc = await findDocumentation(app.db, request.params.id);
    if (!doc) throw new HttpError(404, M.documentationNotFound);
    const rel = await loadDocumentationRelations(app.db, [doc]);
    const base = originOf(request);
    const [data] = await inLanguage(base, [doc], rel, langcode);
    return sendDocument(
      reply,
      resourceDocument({
        url: requestUrl(request),
        data: data!,
        included: await included(base, query.include, rel),
        fields: query.fields,
      }),
    );
  });

  /** The converted document (spec B 7): by alias first, then by api id or uuid. */
  app.get<{ Querystring: { api?: string; alias?: string } }>('/api/swagger', async (request, reply) => {
    const alias = typeof request.query.alias === 'string' ? normalizeAlias(request.query.alias) : '';
    const api = typeof request.query.api === 'string' ? request.query.api.trim() : '';
    if (!alias && !api) throw new HttpError(404, M.swaggerNotFound);
    const candidates = await db
      .selectFrom('api_documentations')
      .select(['id', 'alias', 'api_id', 'content_hash'])
      .where((eb) =>
        eb.or([
          ...(alias ? [eb('alias', '=', alias)] : []),
          ...(api ? [eb('api_id', '=', api), eb(sql`uuid::text`, '=', api.toLowerCase())] : []),
        ]),
      )
      .execute();
    const row = candidates.find((c) => alias && c.alias === alias) ?? candidates[0];
    if (!row) throw new HttpError(404, M.swaggerNotFound);
    return sendStored(request, reply, row.id, row.content_hash);
  });

  async function byAlias(alias: string) {
    const row = await db
      .selectFrom('api_documentations')
      .select(['id', 'uuid', 'alias', 'content_hash', 'source_format', 'source_filename'])
      .where('alias', '=', normalizeAlias(alias))
      .executeTakeFirst();
    if (!row) throw new HttpError(404, M.swaggerNotFound);
    return row;
  }

  /**
   * The ETag of an answer that changes only with the document (its content hash), checked on every
   * request: true when the client's copy is current (then answered 304).
   */
  function unchanged(request: FastifyRequest, reply: FastifyReply, etag: string): boolean {
    reply.header('ETag', etag).header('Cache-Control', 'no-cache');
    return etagMatches(request, etag);
  }

  /** The stored (converted) document, streamed from its rows. */
  async function sendStored(
    request: FastifyRequest,
    reply: FastifyReply,
    id: number,
    hash: string | null,
    attachment?: string,
  ) {
    if (unchanged(request, reply, `"${hash ?? `id-${id}`}"`)) return reply.status(304).send();
    const stream = await storedTextStream(app.db, id, 'converted');
    if (!stream) throw new HttpError(404, M.swaggerNotFound);
    if (attachment) reply.header('Content-Disposition', `attachment; filename="${attachment}"`);
    return reply.type('application/json; charset=utf-8').send(stream);
  }

  app.get<{ Params: { alias: string }; Querystring: { langcode?: unknown } }>(
    '/api/apidocs/:alias/index',
    async (request, reply) => {
      const asked = request.query.langcode;
      const langcode = readerLocale(asked);
      const row = await byAlias(request.params.alias);
      // In another language (decision 063): the translation's title, description and tags'
      // descriptions, and the marker; the ETag changes with the translation.
      const translation =
        asked === undefined ? undefined : await documentationTranslation(app.db, row.uuid, langcode);
      const etag = `"${row.content_hash ?? `id-${row.id}`}-index${translation ? `-${translation.stamp}` : ''}"`;
      if (unchanged(request, reply, etag)) return reply.status(304).send();
      // Small beside the document (GitHub's 1,223 operations: 0.3 MB), so read whole and sent as
      // text: the answer cache keeps it, compressed once (plugins/http-cache.ts), where a stream was
      // read from its rows and compressed again for every visit of the page (10 ms a request).
      const text = await readDocumentText(app.db, row.id, 'operation_index');
      if (text === undefined) throw new HttpError(404, M.swaggerNotFound);
      const body = translation
        ? JSON.stringify({
            ...translatedIndex(JSON.parse(text) as OperationIndex, translation.fields),
            translation: translation.marker,
          })
        : text;
      return reply.type('application/json; charset=utf-8').send(body);
    },
  );

  // Worked out when first asked for, from the operation's slice of the stored document (decision
  // 017), and kept in a cache bounded by size.
  app.get<{ Params: { alias: string; key: string } }>(
    '/api/apidocs/:alias/operations/:key',
    async (request, reply) => {
      const row = await byAlias(request.params.alias);
      const etag = `"${row.content_hash ?? ''}-${encodeURIComponent(request.params.key)}"`;
      if (unchanged(request, reply, etag)) return reply.status(304).send();
      const text = await operationDetailText(app.db, row.id, row.content_hash, request.params.key);
      if (text === undefined) throw new HttpError(404, M.operationNotFound);
      return reply.type('application/json; charset=utf-8').send(text);
    },
  );

  app.get<{ Params: { alias: string } }>('/api/apidocs/:alias/download/original', async (request, reply) => {
    const row = await byAlias(request.params.alias);
    const source = await storedTextStream(app.db, row.id, 'source');
    if (!source) throw new HttpError(404, M.swaggerNotFound);
    const ext = row.source_format === 'yaml' ? 'yaml' : 'json';
    const name = (row.source_filename ?? `${row.alias}.${ext}`).replace(/[^A-Za-z0-9._-]/g, '_');
    return reply
      .header('Content-Disposition', `attachment; filename="${name}"`)
      .type(ext === 'yaml' ? 'application/yaml; charset=utf-8' : 'application/json; charset=utf-8')
      .send(source);
  });

  app.get<{ Params: { alias: string; format: string } }>(
    '/api/apidocs/:alias/download/:format',
    async (request, reply) => {
      const { format } = request.params;
      if (format !== 'openapi.json' && format !== 'openapi.yaml') throw new HttpError(404, M.swaggerNotFound);
      const row = await byAlias(request.params.alias);
      const file = `${row.alias.replace(/[^A-Za-z0-9._-]/g, '_')}.openapi.${format === 'openapi.json' ? 'json' : 'yaml'}`;
      if (format === 'openapi.json') {
        return sendStored(request, reply, row.id, row.content_hash, file);
      }
      const yaml = await yamlDownload(app.db, row.id, row.content_hash ?? `id:${row.id}`);
      if (!yaml) throw new HttpError(404, M.swaggerNotFound);
      return reply
        .header('Content-Disposition', `attachment; filename="${file}"`)
        .type('application/yaml; charset=utf-8')
        .send(yaml);
    },
  );
}
