import path from 'node:path';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { sql } from 'kysely';
import { en } from '@portico/contracts/messages';
import type { Db } from '../../db/client.ts';
import {
  collectionDocument,
  requestUrl,
  resourceDocument,
  sendDocument,
  type ResourceObject,
} from '../../jsonapi/document.ts';
import { fetchCollection, type ResourceDescriptionFor } from '../../jsonapi/kysely.ts';
import { parseJsonApiQuery, type JsonApiQuery, type ParseQueryOptions } from '../../jsonapi/query.ts';
import { checkIncludes, values } from '../../jsonapi/resource.ts';
import { serveContentImages } from '../../lib/content-images.ts';
import { HttpError } from '../../lib/errors.ts';
import {
  markerOf,
  readerLocale,
  translationsOf,
  type TranslatedFields,
  type TranslationMarker,
} from '../../lib/translations.ts';
import { DEFAULT_LOCALE, type Locale } from '@portico/contracts/locales';
import { cacheAnswers } from '../../plugins/http-cache.ts';
import { verifiedAddress } from '../identity/service.ts';
import { consoleArticleRoutes } from './console.ts';
import { consoleFaqRoutes } from './faq-console.ts';
import { consoleCategoryRoutes } from './category-console.ts';
import { CONTENT_IMAGES_PATH } from './importer.ts';
import { articleTranslation, categoryTranslation, faqTranslation } from './translatable.ts';
import {
  articleIncludes,
  articleResource,
  faqCategoryResource,
  faqResource,
  newsCategoryResource,
  type ArticleRow,
  type CategoryInLanguage,
} from './resources.ts';
import { contentDb } from './tables.ts';

/**
 * A kind's categories in the reader's language (decision 063): each one's translated name where
 * one exists, marked; in the default language as they always were, with no marker (the English
 * answers stay unchanged).
 */
function categoriesIn(
  found: ReadonlyMap<string, TranslatedFields> | undefined,
  langcode: Locale,
): CategoryInLanguage {
  return (category) => {
    if (langcode === DEFAULT_LOCALE) return { category };
    const shown = categoryTranslation(found?.get(category.uuid));
    return { category: shown ? { ...category, ...shown } : category, marker: markerOf(langcode, !!shown) };
  };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Who may read the internal blog (README.md 'Internal blog'): the provider's administrators, and
 * the accounts whose proven address is in one of INTERNAL_DEVELOPER_DOMAINS. An unverified address
 * proves nothing (anyone may sign up as someone@bank.example), so it opens nothing internal.
 */
export function isInternalDeveloper(app: FastifyInstance, request: FastifyRequest): boolean {
  const user = request.user;
  if (!user) return false;
  if (user.isAdmin) return true;
  const address = verifiedAddress(user);
  if (!address) return false;
  const domain = address.split('@').pop()?.toLowerCase() ?? '';
  return app.config.internalDeveloperDomains.includes(domain);
}

function articleBase(db: Db) {
  return contentDb(db)
    .selectFrom('articles as a')
    .leftJoin('news_categories as c', 'c.id', 'a.category_id')
    .leftJoin('article_authors as au', 'au.id', 'a.author_id')
    .select([
      'a.id',
      'a.uuid',
      'a.title',
      'a.path',
      'a.description',
      'a.body_html',
      'a.image_url',
      'a.image_alt',
      'a.published',
      'a.internal',
      'a.scrollspy_visible',
      'a.created',
      'a.changed',
      'c.uuid as category_uuid',
      'c.name as category_name',
      'c.weight as category_weight',
      'au.uuid as author_uuid',
      'au.id as author_id',
      'au.name as author_name',
      'au.first_name as author_first_name',
      'au.last_name as author_last_name',
      'au.image_url as author_image_url',
      'au.created as author_created',
      'au.changed as author_changed',
    ]);
}

const ARTICLE_INCLUDES = ['field_category', 'field_image', 'uid.user_picture'];

const articleDescription: ResourceDescriptionFor<ReturnType<typeof articleBase>> = {
  type: 'node--article',
  tiebreaker: 'a.id',
  defaultSort: [{ path: 'created', direction: 'DESC' }],
  fields: {
    id: { sql: 'a.uuid', value: values.uuid, sort: false },
    title: { sql: 'a.title', value: values.text },
    status: { sql: 'a.published', value: values.boolean, sort: false },
    created: { sql: 'a.created', value: values.timestamp },
    changed: { sql: 'a.changed', value: values.timestamp },
    'path.alias': { sql: 'a.path', value: values.text, sort: false },
    'body.value': { sql: 'a.body_html', value: values.text, sort: false },
    field_internal: { sql: 'a.internal', value: values.boolean, sort: false },
    field_category: { sql: 'c.uuid', value: values.uuid, sort: false },
    'field_category.id': { sql: 'c.uuid', value: values.uuid, sort: false },
    'field_category.name': { sql: 'c.name', value: values.text },
  },
  includes: ARTICLE_INCLUDES,
  sparseFields: {
    'node--article': [
      'drupal_internal__nid',
      'title',
      'status',
      'created',
      'changed',
      'path',
      'body',
      'field_description',
      'field_scrollspy_visible',
      'field_internal',
      'field_category',
      'field_image',
      'uid',
    ],
    'taxonomy_term--news_categories': ['name', 'weight'],
    'file--file': ['filename', 'uri', 'url', 'filemime'],
    'user--user': [
      'drupal_internal__uid',
      'name',
      'display_name',
      'first_name',
      'last_name',
      'created',
      'changed',
      'user_picture',
    ],
  },
};

function categoryBase(db: Db, table: 'news_categories' | 'faq_categories') {
  // Both tables have the same columns; Kysely sees them through one of them.
  return contentDb(db)
    .selectFrom(`${table as 'news_categories'} as t`)
    .select(['t.id', 't.uuid', 't.name', 't.weight']);
}
/**
 * A kind's categories as JSON:API describes them to a reader of `langcode`: `name` sorts and
 * filters by the name the reader sees (its translation, else the default language's).
 */
const categoryDescription = (
  type: string,
  kind: 'news_category' | 'faq_category',
  langcode: Locale,
): ResourceDescriptionFor<ReturnType<typeof categoryBase>> => ({
  type,
  tiebreaker: 't.id',
  defaultSort: [
    { path: 'weight', direction: 'ASC' },
    { path: 'name', direction: 'ASC' },
  ],
  fields: {
    id: { sql: 't.uuid', value: values.uuid, sort: false },
    name: {
      sql:
        langcode === DEFAULT_LOCALE
          ? 't.name'
          : {
              // One row per item and language (the table's primary key).
              expression: () => sql<string>`coalesce((
                select ct.fields->>'name' from content_translations ct
                where ct.entity_type = ${kind} and ct.entity_id = t.uuid::text and ct.langcode = ${langcode}
              ), t.name)`,
            },
      value: values.text,
    },
    weight: { sql: 't.weight', value: values.integer },
  },
  sparseFields: { [type]: ['name', 'weight'] },
});

function faqBase(db: Db) {
  return (
    contentDb(db)
      .selectFrom('faqs as f')
      .leftJoin('faq_categories as c', 'c.id', 'f.category_id')
      .select([
        'f.id',
        'f.uuid',
        'f.question',
        'f.answer_html',
        'f.weight',
        'f.created',
        'f.changed',
        'c.uuid as category_uuid',
        'c.name as category_name',
        'c.weight as category_weight',
      ])
      // Drafts are the console's only (README.md 'Console: FAQ').
      .where('f.published', '=', true)
  );
}

const faqDescription: ResourceDescriptionFor<ReturnType<typeof faqBase>> = {
  type: 'node--faq',
  tiebreaker: 'f.id',
  // Categories in their order, the uncategorised questions after them (spec B 2.5).
  defaultSort: [
    { path: 'field_category.weight', direction: 'ASC' },
    { path: 'weight', direction: 'ASC' },
  ],
  fields: {
    id: { sql: 'f.uuid', value: values.uuid, sort: false },
    title: { sql: 'f.question', value: values.text },
    'field_answer.value': { sql: 'f.answer_html', value: values.text, sort: false },
    field_answer: { sql: 'f.answer_html', value: values.text, sort: false },
    weight: { sql: 'f.weight', value: values.integer },
    // Questions without a category sort after every category.
    'field_category.weight': {
      sql: { expression: () => sql`coalesce(c.weight, 2147483647)` },
      value: values.integer,
    },
    created: { sql: 'f.created', value: values.timestamp },
    field_category: { sql: 'c.uuid', value: values.uuid, sort: false },
    'field_category.id': { sql: 'c.uuid', value: values.uuid, sort: false },
    'field_category.name': { sql: 'c.name', value: values.text },
  },
  includes: ['field_category'],
  sparseFields: {
    'node--faq': [
      'drupal_internal__nid',
      'title',
      'field_answer',
      'weight',
      'created',
      'changed',
      'field_category',
    ],
    'taxonomy_term--faq_categories': ['name', 'weight'],
  },
};

/**
 * Public content of spec B 7 (README.md): articles and news categories (the blog), FAQs and their
 * categories, the images of content/blog, and the cloud document viewer's settings.
 */
export default fp(
  async (root) => {
    await root.register(contentRoutes);
    await root.register(consoleArticleRoutes);
    await root.register(consoleFaqRoutes);
    await root.register(consoleCategoryRoutes);
  },
  { name: 'content', dependencies: ['db', 'session', 'http-cache'] },
);

/** One JSON:API collection of the module: what a page of it holds. */
interface CollectionRoute {
  path: string;
  limits: ParseQueryOptions;
  /** The page's resources, the total count and the included resources asked for. */
  page(
    request: FastifyRequest,
    query: JsonApiQuery,
  ): Promise<{ data: ResourceObject[]; count: number; included?: ResourceObject[] }>;
}

const ARTICLE_PATH = '/jsonapi/node/article/:id';

/** The module's routes, in their own scope: the answer cache below applies to them only. */
async function contentRoutes(app: FastifyInstance): Promise<void> {
  const base = () => app.config.publicUrl;

  /**
   * Articles in the reader's language (decision 063): a translation's title, summary and body where
   * one exists, else the default language's, marked as a fallback; the included categories too.
   * The translations of both kinds in one query.
   */
  const translatedArticles = async (
    rows: readonly ArticleRow[],
    langcode: Locale,
    include: readonly string[],
  ): Promise<{ data: ResourceObject[]; included: ResourceObject[] }> => {
    const found = await translationsOf(app.db).forKinds(
      {
        article: rows.map((r) => r.uuid),
        news_category: include.includes('field_category')
          ? rows.flatMap((r) => (r.category_uuid ? [r.category_uuid] : []))
          : [],
      },
      langcode,
    );
    const articles = found.get('article');
    const data = rows.map((r) => {
      const fields = articles?.get(r.uuid);
      const shown = fields && articleTranslation(fields);
      const row = shown
        ? { ...r, title: shown.title, description: shown.description, body_html: shown.bodyHtml }
        : r;
      return articleResource(base(), row, markerOf(langcode, !!fields));
    });
    const inLanguage = categoriesIn(found.get('news_category'), langcode);
    return { data, included: articleIncludes(base(), rows, include, inLanguage) };
  };

  /** Articles the asker may see: published ones, internal ones only for the group. */
  function readableArticles(request: FastifyRequest) {
    let qb = articleBase(app.db);
    if (!request.user?.isAdmin) qb = qb.where('a.published', '=', true);
    if (!isInternalDeveloper(app, request)) qb = qb.where('a.internal', '=', false);
    return qb;
  }

  /** A kind's categories, their names in the reader's language (decision 063). */
  const categories = (
    table: 'news_categories' | 'faq_categories',
    kind: 'news_category' | 'faq_category',
    type: string,
    toResource: (
      base: string,
      c: { uuid: string; name: string; weight: number },
      marker?: TranslationMarker,
    ) => ResourceObject,
  ): CollectionRoute => {
    return {
      path: `/jsonapi/taxonomy_term/${table}`,
      limits: { defaultLimit: 50, maxLimit: 50 },
      async page(_request, query) {
        const langcode = readerLocale(query.extra.langcode);
        const { rows, count } = await fetchCollection(
          app.db,
          categoryBase(app.db, table),
          categoryDescription(type, kind, langcode),
          query,
        );
        const found = await translationsOf(app.db).forItems(
          kind,
          rows.map((r) => r.uuid),
          langcode,
        );
        const inLanguage = categoriesIn(found, langcode);
        return {
          data: rows.map((r) => {
            const { category, marker } = inLanguage(r);
            return toResource(base(), { ...r, name: category.name }, marker);
          }),
          count,
        };
      },
    };
  };

  const collections: CollectionRoute[] = [
    {
      path: '/jsonapi/node/article',
      limits: { defaultLimit: 5, maxLimit: 50 },
      async page(request, query) {
        // Lists leave out the articles without a path.
        const visible = readableArticles(request).where('a.path', 'is not', null);
        const { rows, count } = await fetchCollection(app.db, visible, articleDescription, query);
        const { data, included } = await translatedArticles(
          rows as ArticleRow[],
          readerLocale(query.extra.langcode),
          query.include,
        );
        return { data, count, included };
      },
    },
    categories('news_categories', 'news_category', 'taxonomy_term--news_categories', newsCategoryResource),
    categories('faq_categories', 'faq_category', 'taxonomy_term--faq_categories', faqCategoryResource),
    {
      path: '/jsonapi/node/faq',
      limits: { defaultLimit: 50, maxLimit: 50 },
      async page(_request, query) {
        const { rows, count } = await fetchCollection(app.db, faqBase(app.db), faqDescription, query);
        const langcode = readerLocale(query.extra.langcode);
        const withCategory = query.include.includes('field_category')
          ? rows.filter((r) => r.category_uuid && r.category_name !== null)
          : undefined;
        // The questions' translations and their categories' in one query (decision 063).
        const found = await translationsOf(app.db).forKinds(
          { faq: rows.map((r) => r.uuid), faq_category: (withCategory ?? []).map((r) => r.category_uuid!) },
          langcode,
        );
        const inLanguage = categoriesIn(found.get('faq_category'), langcode);
        const included = withCategory?.map((r) => {
          const { category, marker } = inLanguage({
            uuid: r.category_uuid!,
            name: r.category_name!,
            weight: r.category_weight ?? 0,
          });
          return faqCategoryResource(base(), category, marker);
        });
        const faqs = found.get('faq');
        const data = rows.map((r) => {
          const fields = faqs?.get(r.uuid);
          const shown = fields && faqTranslation(fields);
          const row = shown
            ? {
                ...r,
                question: shown.question ?? r.question,
                answer_html: shown.answerHtml ?? r.answer_html,
              }
            : r;
          return faqResource(base(), row, markerOf(langcode, !!fields));
        });
        return { data, count, included };
      },
    },
  ];

  // The blog's and the FAQ's lists depend only on their tables and the user (who may see internal
  // or unpublished articles): answered from memory until those change, per user (decision 028).
  cacheAnswers(app, {
    domains: ['content', 'translations'],
    perUser: true,
    routes: [...collections.map((c) => c.path), ARTICLE_PATH],
  });

  for (const route of collections) {
    app.get(route.path, async (request, reply) => {
      const query = parseJsonApiQuery(request.query, { ...route.limits, extraParameters: ['langcode'] });
      const { data, count, included } = await route.page(request, query);
      return sendDocument(
        reply.header('Cache-Control', 'no-cache'),
        collectionDocument({
          url: requestUrl(request),
          data,
          count,
          page: query.page,
          included,
          fields: query.fields,
        }),
      );
    });
  }

  app.get<{ Params: { id: string } }>(ARTICLE_PATH, async (request, reply) => {
    const query = parseJsonApiQuery(request.query, {
      defaultLimit: 1,
      maxLimit: 1,
      extraParameters: ['langcode'],
    });
    const langcode = readerLocale(query.extra.langcode);
    checkIncludes(articleDescription, query.include);
    const { id } = request.params;
    // An article without a path is still found by its id (it is only left out of lists).
    const row = UUID.test(id)
      ? await readableArticles(request).where('a.uuid', '=', id.toLowerCase()).executeTakeFirst()
      : undefined;
    if (!row) throw new HttpError(404, en.errors.notFoundText);
    const { data, included } = await translatedArticles([row], langcode, query.include);
    return sendDocument(
      reply.header('Cache-Control', 'no-cache'),
      resourceDocument({ url: requestUrl(request), data: data[0]!, included, fields: query.fields }),
    );
  });

  // Images of content/blog/images (article heroes, author pictures).
  serveContentImages(app, CONTENT_IMAGES_PATH, path.join(app.config.contentDir, 'blog', 'images'));

  // The cloud document viewer's settings (README.md 'Cloud documents'); nothing secret.
  app.get('/phpsdk/cloud-documents/config', async (_request, reply) => {
    const c = app.config.cloudDocs;
    return reply.header('Cache-Control', 'no-cache').send(
      c
        ? {
            enabled: true,
            clientId: c.clientId,
            authUrl: c.authUrl,
            apiUrl: c.apiUrl,
            pdfUrl: c.pdfUrl,
            scopes: CLOUD_DOCS_SCOPES,
          }
        : { enabled: false },
    );
  });
}

/** Google's scopes for reading Drive documents (spec B 7: drive file and read-only). */
export const CLOUD_DOCS_SCOPES = [
  'https://www.googleapis.com/auth/drive.file',
  'https://www.googleapis.com/auth/drive.readonly',
];
