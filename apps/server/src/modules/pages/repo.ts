import type { Db } from '../../db/client.ts';
import { cleanHtml } from '../../lib/content-html.ts';
import { plainText } from '../../lib/plain-text.ts';
import { translationsOf } from '../../lib/translations.ts';
import { searchIndex, translatedSearch } from '../search/service.ts';
import { pagesDb } from './tables.ts';

/** Lower-case path segments of letters, digits and `._~-`, each starting with a letter or digit. */
const ALIAS = /^(\/[a-z0-9][a-z0-9._~-]*)+$/;

/**
 * The stored form of a path alias, or undefined when the path cannot be one: percent-decoded,
 * lower case, one leading slash, no trailing slash or empty segments ('/Privacy/' → '/privacy').
 * Requests and content files go through the same function, so they always meet.
 */
export function normalizeAlias(raw: string): string | undefined {
  let path = raw.split(/[?#]/, 1)[0] ?? '';
  try {
    path = decodeURIComponent(path);
  } catch {
    return undefined;
  }
  path = `/${path.trim().toLowerCase()}`.replace(/\/{2,}/g, '/').replace(/\/+$/, '');
  return ALIAS.test(path) ? path : undefined;
}

export interface PageInput {
  /** Normalized aliases; the first one is the canonical alias. */
  aliases: string[];
  title: string;
  /** HTML; sanitized here before it is stored, whoever calls. */
  body: string;
  image?: { url: string; alt?: string | undefined } | null | undefined;
  authorId?: number | null | undefined;
  googleDriveId?: string | null | undefined;
  scrollspyVisible?: boolean | undefined;
  /** Set by the content importer only: pages without it are never touched by an import. */
  sourceHash?: string | null | undefined;
  /** The Markdown `body` was rendered from (kept for the console and the export). */
  bodyMarkdown?: string | null | undefined;
  /** A draft (false) answers no visitor and is not in the search; true when not given. */
  published?: boolean | undefined;
  /** A scheduled publication (with `published` false until then), or null. */
  publishAt?: Date | null | undefined;
  /** content/pages/<name>.md it came from or is exported to. */
  sourceFile?: string | null | undefined;
}

/** A page as `GET {alias}?_format=json` answers it (spec B 3 'Basic page'). */
export interface PageJson {
  uuid: string;
  title: string;
  alias: string;
  /** Processed (sanitized) HTML. */
  body: string;
  image: { url: string; alt: string } | null;
  author: {
    uuid: string;
    uid: number;
    name: string;
    first_name: string | null;
    last_name: string | null;
  } | null;
  created: string;
  changed: string;
  field_google_drive_id: string | null;
  field_scrollspy_visible: boolean;
  statusCode: 200;
}

function iso(value: Date | string): string {
  return (value instanceof Date ? value : new Date(value)).toISOString();
}

function columns(input: PageInput) {
  const [alias] = input.aliases;
  if (!alias || input.aliases.some((a) => normalizeAlias(a) !== a)) {
    throw new Error(`a page needs normalized aliases, got ${JSON.stringify(input.aliases)}`);
  }
  return {
    alias,
    title: input.title,
    body_html: cleanHtml(input.body),
    image_url: input.image?.url ?? null,
    image_alt: input.image ? (input.image.alt ?? '') : null,
    author_id: input.authorId ?? null,
    google_drive_id: input.googleDriveId ?? null,
    scrollspy_visible: input.scrollspyVisible ?? false,
    source_hash: input.sourceHash ?? null,
    body_markdown: input.bodyMarkdown ?? null,
    published: input.published ?? true,
    publish_at: input.published === false ? (input.publishAt ?? null) : null,
    source_file: input.sourceFile ?? null,
  };
}

/** A page's translations in the site search (decision 065), made as its own row is. */
export const PAGE_SEARCH = translatedSearch({
  type: 'page',
  entityType: 'page',
  doc: (t) => ({ title: t.title ?? '', text: plainText(t.bodyHtml ?? '') }),
});

/**
 * A published page is a 'page' result of the site search, leading to its canonical alias (spec B
 * 2.6); a draft is none.
 */
async function indexPage(trx: Db, uuid: string, created: Date, values: ReturnType<typeof columns>) {
  if (!values.published) return searchIndex(trx).remove('page', uuid);
  await searchIndex(trx).upsert(
    {
      type: 'page',
      uuid,
      title: values.title,
      text: plainText(values.body_html),
      link: values.alias,
      image: values.image_url,
      created,
    },
    PAGE_SEARCH,
  );
}

/** Runs `fn` in the caller's transaction, or in a new one. */
function inTransaction<T>(db: Db, fn: (trx: Db) => Promise<T>): Promise<T> {
  return db.isTransaction ? fn(db) : db.transaction().execute(fn);
}

/**
 * Basic pages and their aliases. Invariant: every page's canonical alias is also a row of
 * `page_aliases`, so an alias names at most one page whichever way it was given.
 */
export function pagesRepo(db: Db) {
  /**
   * Adds the aliases still free; returns those another page already has. The canonical alias
   * (the first) must be free: a page always answers to its own alias.
   */
  async function addAliases(trx: Db, pageId: number, aliases: string[]): Promise<string[]> {
    const taken: string[] = [];
    for (const [index, alias] of [...new Set(aliases)].entries()) {
      const added = await pagesDb(trx)
        .insertInto('page_aliases')
        .values({ alias, page_id: pageId })
        .onConflict((oc) => oc.column('alias').doNothing())
        .returning('alias')
        .executeTakeFirst();
      if (added) continue;
      if (index === 0) throw new Error(`the alias ${alias} belongs to another page`);
      taken.push(alias);
    }
    return taken;
  }

  return {
    /** The page an alias names (any of its aliases), with its author. */
    async findByAlias(alias: string): Promise<PageJson | undefined> {
      const row = await pagesDb(db)
        .selectFrom('page_aliases as pa')
        .innerJoin('pages as p', 'p.id', 'pa.page_id')
        .leftJoin('users as u', 'u.id', 'p.author_id')
        .select([
          'p.uuid',
          'p.alias',
          'p.title',
          'p.body_html',
          'p.image_url',
          'p.image_alt',
          'p.google_drive_id',
          'p.scrollspy_visible',
          'p.created',
          'p.changed',
          'u.id as author_id',
          'u.uuid as author_uuid',
          'u.name as author_name',
          'u.first_name as author_first_name',
          'u.last_name as author_last_name',
        ])
        .where('pa.alias', '=', alias)
        .where('p.published', '=', true)
        .executeTakeFirst();
      if (!row) return undefined;
      return {
        uuid: row.uuid,
        title: row.title,
        alias: row.alias,
        body: row.body_html,
        image: row.image_url ? { url: row.image_url, alt: row.image_alt ?? '' } : null,
        author:
          row.author_id !== null && row.author_uuid !== null && row.author_name !== null
            ? {
                uuid: row.author_uuid,
                uid: row.author_id,
                name: row.author_name,
                first_name: row.author_first_name,
                last_name: row.author_last_name,
              }
            : null,
        created: iso(row.created),
        changed: iso(row.changed),
        field_google_drive_id: row.google_drive_id,
        field_scrollspy_visible: row.scrollspy_visible,
        statusCode: 200,
      };
    },

    /**
     * Which page an alias names (drafts included), whether (and from what) it was imported, and
     * whether the console edited it since.
     */
    findOwner(alias: string): Promise<
      | {
          id: number;
          uuid: string;
          source_hash: string | null;
          edited_at: Date | string | null;
          version: number;
        }
      | undefined
    > {
      return pagesDb(db)
        .selectFrom('page_aliases as pa')
        .innerJoin('pages as p', 'p.id', 'pa.page_id')
        .select(['p.id', 'p.uuid', 'p.source_hash', 'p.edited_at', 'p.version'])
        .where('pa.alias', '=', alias)
        .executeTakeFirst();
    },

    /**
     * Creates a page. The canonical alias must be free (it fails otherwise); other aliases that
     * another page already has are left to it and returned.
     */
    create(
      input: PageInput,
      options: { editedAt?: Date } = {},
    ): Promise<{ id: number; uuid: string; takenAliases: string[] }> {
      const values = columns(input);
      return inTransaction(db, async (trx) => {
        const { id, uuid, created } = await pagesDb(trx)
          .insertInto('pages')
          .values({ ...values, edited_at: options.editedAt ?? null })
          .returning(['id', 'uuid', 'created'])
          .executeTakeFirstOrThrow();
        await indexPage(trx, uuid, created, values);
        return { id, uuid, takenAliases: await addAliases(trx, id, input.aliases) };
      });
    },

    /**
     * Replaces a page's fields and aliases, keeping its id, uuid and created date. The canonical
     * alias must be free or the page's own; other aliases taken by another page are returned.
     * Raises the page's version; `editedAt` marks a console save.
     */
    replace(
      id: number,
      input: PageInput,
      options: { editedAt?: Date } = {},
    ): Promise<{ takenAliases: string[] }> {
      const values = columns(input);
      return inTransaction(db, async (trx) => {
        await pagesDb(trx).deleteFrom('page_aliases').where('page_id', '=', id).execute();
        const { uuid, created } = await pagesDb(trx)
          .updateTable('pages')
          .set((eb) => ({
            ...values,
            changed: new Date(),
            version: eb('version', '+', 1),
            ...(options.editedAt ? { edited_at: options.editedAt } : {}),
          }))
          .where('id', '=', id)
          .returning(['uuid', 'created'])
          .executeTakeFirstOrThrow();
        await indexPage(trx, uuid, created, values);
        return { takenAliases: await addAliases(trx, id, input.aliases) };
      });
    },

    /** Writes the search rows of these pages from their current state (published ones in, the rest out). */
    async reindex(ids: readonly number[]): Promise<void> {
      if (ids.length === 0) return;
      const rows = await pagesDb(db)
        .selectFrom('pages')
        .selectAll()
        .where('id', 'in', [...ids])
        .execute();
      for (const row of rows)
        await indexPage(db, row.uuid, new Date(row.created), { ...row, publish_at: null });
    },

    /** Deletes a page: its aliases go with it, and its search row (its revisions: the console's delete). */
    remove(id: number): Promise<void> {
      return inTransaction(db, async (trx) => {
        const row = await pagesDb(trx)
          .deleteFrom('pages')
          .where('id', '=', id)
          .returning('uuid')
          .executeTakeFirst();
        if (row) await searchIndex(trx).remove('page', row.uuid);
        if (row) await translationsOf(trx).removeItems('page', [row.uuid]);
      });
    },
  };
}
