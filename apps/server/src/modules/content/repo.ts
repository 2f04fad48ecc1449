import { sql } from 'kysely';
import type { Db } from '../../db/client.ts';
import { cleanHtml } from '../../lib/content-html.ts';
import { plainText } from '../../lib/plain-text.ts';
import { translationsOf } from '../../lib/translations.ts';
import { searchIndex, translatedSearch } from '../search/service.ts';
import { contentDb } from './tables.ts';

/**
 * Writes of the content module. Every article write also writes the site search index in the same
 * transaction (search/README.md): a published, public article with a path is indexed with its path
 * as the link; anything else is removed from the index.
 */

export interface ArticleInput {
  title: string;
  path: string | null;
  description: string;
  /** HTML; sanitized here before it is stored, whoever calls. */
  body: string;
  /** The Markdown the HTML was rendered from (what the console edits and the export writes). */
  bodyMarkdown: string | null;
  /** A scheduled publication (with `published` false until then), or null. */
  publishAt?: Date | null;
  image: { url: string; alt: string } | null;
  categoryId: number | null;
  authorId: number | null;
  published: boolean;
  internal: boolean;
  scrollspyVisible: boolean;
  created: Date;
  sourceFile: string | null;
  sourceHash: string | null;
}

/** Runs `fn` in the caller's transaction, or in a new one. */
function inTransaction<T>(db: Db, fn: (trx: Db) => Promise<T>): Promise<T> {
  return db.isTransaction ? fn(db) : db.transaction().execute(fn);
}

/** Whether the site search shows an article (hidden ones are removed, not filtered at query time). */
function searchable(a: Pick<ArticleInput, 'published' | 'internal' | 'path'>): boolean {
  return a.published && !a.internal && a.path !== null;
}

/**
 * An article's translations in the site search (decision 065): made as its own row is (title;
 * summary and body as the text).
 */
export const ARTICLE_SEARCH = translatedSearch({
  type: 'article',
  entityType: 'article',
  doc: (t) => ({ title: t.title ?? '', text: plainText(`${t.description ?? ''} ${t.bodyHtml ?? ''}`) }),
});

/** An article's search row as it now is: written when the site search shows it, removed otherwise. */
async function indexArticle(
  db: Db,
  a: {
    uuid: string;
    title: string;
    description: string;
    bodyHtml: string;
    path: string | null;
    imageUrl: string | null;
    created: Date;
    published: boolean;
    internal: boolean;
  },
): Promise<void> {
  if (!searchable(a)) return searchIndex(db).remove('article', a.uuid);
  await searchIndex(db).upsert(
    {
      type: 'article',
      uuid: a.uuid,
      title: a.title,
      text: plainText(`${a.description} ${a.bodyHtml}`),
      link: a.path,
      image: a.imageUrl,
      created: a.created,
    },
    ARTICLE_SEARCH,
  );
}

export interface FaqInput {
  question: string;
  /** HTML; sanitized here before it is stored. */
  answer: string;
  /** The Markdown the HTML was rendered from (what the console edits and the export writes). */
  answerMarkdown: string | null;
  categoryId: number | null;
  weight: number;
  published: boolean;
  /** A scheduled publication (with `published` false until then); none when left out. */
  publishAt?: Date | null;
}

function faqValues(f: FaqInput) {
  return {
    question: f.question,
    answer_html: cleanHtml(f.answer),
    answer_markdown: f.answerMarkdown,
    category_id: f.categoryId,
    weight: f.weight,
    published: f.published,
    publish_at: f.published ? null : (f.publishAt ?? null),
  };
}

/** A FAQ question's translations in the site search (decision 065), made as its own row is. */
export const FAQ_SEARCH = translatedSearch({
  type: 'faq',
  entityType: 'faq',
  doc: (t) => ({ title: t.question ?? '', text: plainText(t.answerHtml ?? '') }),
});

/**
 * A FAQ question's search row as it now is: a published one is found (leading to the FAQ page),
 * a draft is removed.
 */
async function indexFaq(
  db: Db,
  f: { uuid: string; question: string; answerHtml: string; published: boolean; created: Date | string },
): Promise<void> {
  if (!f.published) return searchIndex(db).remove('faq', f.uuid);
  await searchIndex(db).upsert(
    {
      type: 'faq',
      uuid: f.uuid,
      title: f.question,
      text: plainText(f.answerHtml),
      link: FAQ_PAGE,
      created: new Date(f.created),
    },
    FAQ_SEARCH,
  );
}

/** Where a FAQ question's search result leads (spec B 2.5). */
export const FAQ_PAGE = '/faq-page';

export function contentRepo(db: Db) {
  return {
    /**
     * Creates or replaces the article of a content file (by source_file) or by id; a replacement
     * raises its version. Returns its id, uuid and version.
     */
    async saveArticle(
      input: ArticleInput,
      existing?: { id: number },
      options: { editedAt?: Date } = {},
    ): Promise<{ id: number; uuid: string; version: number }> {
      const values = {
        title: input.title,
        path: input.path,
        description: input.description,
        body_html: cleanHtml(input.body),
        image_url: input.image?.url ?? null,
        image_alt: input.image ? input.image.alt : null,
        category_id: input.categoryId,
        author_id: input.authorId,
        published: input.published,
        internal: input.internal,
        scrollspy_visible: input.scrollspyVisible,
        source_file: input.sourceFile,
        source_hash: input.sourceHash,
        created: input.created,
        changed: new Date(),
        body_markdown: input.bodyMarkdown,
        publish_at: input.publishAt ?? null,
      };
      return inTransaction(db, async (trx) => {
        const cdb = contentDb(trx);
        const row = existing
          ? await cdb
              .updateTable('articles')
              .set((eb) => ({
                ...values,
                version: eb('version', '+', 1),
                ...(options.editedAt ? { edited_at: options.editedAt } : {}),
              }))
              .where('id', '=', existing.id)
              .returning(['id', 'uuid', 'body_html', 'version'])
              .executeTakeFirstOrThrow()
          : await cdb
              .insertInto('articles')
              .values({ ...values, edited_at: options.editedAt ?? null })
              .returning(['id', 'uuid', 'body_html', 'version'])
              .executeTakeFirstOrThrow();
        await indexArticle(trx, {
          ...input,
          uuid: row.uuid,
          bodyHtml: row.body_html,
          imageUrl: input.image?.url ?? null,
        });
        return { id: row.id, uuid: row.uuid, version: row.version };
      });
    },

    /** Removes articles (and their search rows). */
    async deleteArticles(ids: readonly number[]): Promise<void> {
      if (ids.length === 0) return;
      await inTransaction(db, async (trx) => {
        const gone = await contentDb(trx)
          .deleteFrom('articles')
          .where('id', 'in', [...ids])
          .returning('uuid')
          .execute();
        await searchIndex(trx).remove(
          'article',
          gone.map((g) => g.uuid),
        );
        await translationsOf(trx).removeItems(
          'article',
          gone.map((g) => g.uuid),
        );
      });
    },

    /** Publishes or unpublishes an article, keeping the search index in step. */
    async setPublished(uuid: string, published: boolean): Promise<boolean> {
      return inTransaction(db, async (trx) => {
        const row = await contentDb(trx)
          .updateTable('articles')
          .set((eb) => ({ published, publish_at: null, changed: new Date(), version: eb('version', '+', 1) }))
          .where('uuid', '=', uuid)
          .returningAll()
          .executeTakeFirst();
        if (!row) return false;
        await indexArticle(trx, { ...row, bodyHtml: row.body_html, imageUrl: row.image_url });
        return true;
      });
    },

    /** Writes the search rows of these articles from their current state (published ones in, the rest out). */
    async reindexArticles(ids: readonly number[]): Promise<void> {
      if (ids.length === 0) return;
      const rows = await contentDb(db)
        .selectFrom('articles')
        .selectAll()
        .where('id', 'in', [...ids])
        .execute();
      for (const row of rows) {
        await indexArticle(db, { ...row, bodyHtml: row.body_html, imageUrl: row.image_url });
      }
    },

    async upsertNewsCategory(name: string, weight: number): Promise<number> {
      const row = await contentDb(db)
        .insertInto('news_categories')
        .values({ name, weight })
        // A category the import moves gets a new version (a console save from before is stale).
        .onConflict((oc) =>
          oc.column('name').doUpdateSet({
            weight,
            version: sql<number>`case when news_categories.weight = ${weight} then news_categories.version else news_categories.version + 1 end`,
            changed: sql<Date>`case when news_categories.weight = ${weight} then news_categories.changed else now() end`,
          }),
        )
        .returning('id')
        .executeTakeFirstOrThrow();
      return row.id;
    },

    async upsertAuthor(a: {
      key: string;
      name: string;
      firstName: string | null;
      lastName: string | null;
      imageUrl: string | null;
    }): Promise<number> {
      const values = {
        key: a.key,
        name: a.name,
        first_name: a.firstName,
        last_name: a.lastName,
        image_url: a.imageUrl,
      };
      const row = await contentDb(db)
        .insertInto('article_authors')
        .values(values)
        .onConflict((oc) => oc.column('key').doUpdateSet({ ...values, changed: new Date() }))
        .returning('id')
        .executeTakeFirstOrThrow();
      return row.id;
    },

    async upsertFaqCategory(name: string, weight: number): Promise<number> {
      const row = await contentDb(db)
        .insertInto('faq_categories')
        .values({ name, weight })
        // A category the import moves gets a new version (a console save from before is stale).
        .onConflict((oc) =>
          oc.column('name').doUpdateSet({
            weight,
            version: sql<number>`case when faq_categories.weight = ${weight} then faq_categories.version else faq_categories.version + 1 end`,
            changed: sql<Date>`case when faq_categories.weight = ${weight} then faq_categories.changed else now() end`,
          }),
        )
        .returning('id')
        .executeTakeFirstOrThrow();
      return row.id;
    },

    /**
     * Replaces the FAQ with the file's list (matched by question: uuids of kept questions stay),
     * leaving alone every question edited in the console (README.md 'Console: FAQ'): one the file
     * also asks is reported as kept, and one the file lacks stays. Search rows follow.
     */
    async replaceFaqs(faqs: readonly FaqInput[]): Promise<{ kept: string[] }> {
      return inTransaction(db, async (trx) => {
        const cdb = contentDb(trx);
        const edited = new Set(
          (await cdb.selectFrom('faqs').select('question').where('edited_at', 'is not', null).execute()).map(
            (r) => r.question,
          ),
        );
        const kept: string[] = [];
        for (const f of faqs) {
          if (edited.has(f.question)) {
            kept.push(f.question);
            continue;
          }
          const values = faqValues(f);
          const row = await cdb
            .insertInto('faqs')
            .values(values)
            .onConflict((oc) =>
              oc.column('question').doUpdateSet({
                ...values,
                changed: new Date(),
                version: sql<number>`faqs.version + 1`,
              }),
            )
            .returning(['uuid', 'answer_html', 'created'])
            .executeTakeFirstOrThrow();
          await indexFaq(trx, { ...f, uuid: row.uuid, answerHtml: row.answer_html, created: row.created });
        }
        let gone = cdb.deleteFrom('faqs').where('edited_at', 'is', null);
        if (faqs.length)
          gone = gone.where(
            'question',
            'not in',
            faqs.map((f) => f.question),
          );
        const removed = await gone.returning('uuid').execute();
        await searchIndex(trx).remove(
          'faq',
          removed.map((r) => r.uuid),
        );
        return { kept };
      });
    },

    /** Creates a FAQ question or replaces one by id (raising its version), and its search row. */
    async saveFaq(
      input: FaqInput,
      existing?: { id: number },
      options: { editedAt?: Date } = {},
    ): Promise<{ id: number; uuid: string; version: number }> {
      return inTransaction(db, async (trx) => {
        const cdb = contentDb(trx);
        const values = faqValues(input);
        const row = existing
          ? await cdb
              .updateTable('faqs')
              .set((eb) => ({
                ...values,
                changed: new Date(),
                version: eb('version', '+', 1),
                ...(options.editedAt ? { edited_at: options.editedAt } : {}),
              }))
              .where('id', '=', existing.id)
              .returning(['id', 'uuid', 'answer_html', 'created', 'version'])
              .executeTakeFirstOrThrow()
          : await cdb
              .insertInto('faqs')
              .values({ ...values, edited_at: options.editedAt ?? null })
              .returning(['id', 'uuid', 'answer_html', 'created', 'version'])
              .executeTakeFirstOrThrow();
        await indexFaq(trx, { ...input, uuid: row.uuid, answerHtml: row.answer_html, created: row.created });
        return { id: row.id, uuid: row.uuid, version: row.version };
      });
    },

    /** Writes the search rows of these questions from their current state (published ones in, the rest out). */
    async reindexFaqs(ids: readonly number[]): Promise<void> {
      if (ids.length === 0) return;
      const rows = await contentDb(db)
        .selectFrom('faqs')
        .select(['uuid', 'question', 'answer_html', 'published', 'created'])
        .where('id', 'in', [...ids])
        .execute();
      for (const r of rows) await indexFaq(db, { ...r, answerHtml: r.answer_html });
    },

    /** Removes FAQ questions (and their search rows). */
    async deleteFaqs(ids: readonly number[]): Promise<void> {
      if (ids.length === 0) return;
      await inTransaction(db, async (trx) => {
        const gone = await contentDb(trx)
          .deleteFrom('faqs')
          .where('id', 'in', [...ids])
          .returning('uuid')
          .execute();
        await searchIndex(trx).remove(
          'faq',
          gone.map((g) => g.uuid),
        );
        await translationsOf(trx).removeItems(
          'faq',
          gone.map((g) => g.uuid),
        );
      });
    },
  };
}
