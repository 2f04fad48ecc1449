import { SEARCH_SNIPPET_LENGTH, type SearchType } from '@portico/contracts/constants';
import { sql, type RawBuilder } from 'kysely';
import { searchDb, type AnyKysely } from './tables.ts';

/**
 * The site search (spec B 2.6, 7 '/phpsdk/search'): an index of everything a visitor can find,
 * kept current by the modules that own the things. A module writes its rows whenever a thing is
 * created, changed or removed, inside the same transaction as the change, so the index is never
 * rebuilt per query and never disagrees with the data:
 *
 *     await searchIndex(trx).upsert({ type: 'article', uuid, title, text: plainText(html), link, created });
 *     await searchIndex(trx).remove('article', uuid);
 *
 * A new searchable type is a new `type` value written the same way (and added to contracts'
 * SEARCH_TYPES, the list the search page offers).
 */
export interface SearchDocument {
  type: SearchType;
  uuid: string;
  title: string;
  /** Plain text (lib/plain-text.ts): searched, and the result's snippet is cut from it. */
  text: string;
  /** Words that find the thing but are not shown (an endpoint's path and operationId). */
  keywords?: string;
  /** Where the result leads; null lets the web app build the link from type and uuid. */
  link?: string | null;
  image?: string | null;
  deprecated?: boolean;
  created: Date | string;
}

/** The index's writes, on a database or inside a caller's transaction. */
export function searchIndex(database: AnyKysely) {
  const db = searchDb(database);
  const row = (d: SearchDocument) => ({
    type: d.type,
    uuid: d.uuid,
    title: d.title,
    body: d.text,
    keywords: d.keywords ?? '',
    link: d.link ?? null,
    image: d.image ?? null,
    deprecated: d.deprecated ?? false,
    created: d.created,
  });
  return {
    async upsert(docs: SearchDocument | readonly SearchDocument[]): Promise<void> {
      const list = Array.isArray(docs) ? docs : [docs as SearchDocument];
      // Batches keep each statement's parameter count well under PostgreSQL's limit.
      for (let i = 0; i < list.length; i += 500) {
        await db
          .insertInto('search_documents')
          .values(list.slice(i, i + 500).map(row))
          .onConflict((oc) =>
            oc.columns(['type', 'uuid']).doUpdateSet((eb) => ({
              title: eb.ref('excluded.title'),
              body: eb.ref('excluded.body'),
              keywords: eb.ref('excluded.keywords'),
              link: eb.ref('excluded.link'),
              image: eb.ref('excluded.image'),
              deprecated: eb.ref('excluded.deprecated'),
              created: eb.ref('excluded.created'),
            })),
          )
          .execute();
      }
    },
    async remove(type: SearchType, uuid: string | readonly string[]): Promise<void> {
      const uuids = typeof uuid === 'string' ? [uuid] : [...uuid];
      for (let i = 0; i < uuids.length; i += 1000) {
        await db
          .deleteFrom('search_documents')
          .where('type', '=', type)
          .where('uuid', 'in', uuids.slice(i, i + 1000))
          .execute();
      }
    },
    /** Removes the rows of `type` whose link starts with `prefix` (everything one source wrote). */
    async removeLinked(type: SearchType, prefix: string): Promise<void> {
      await db
        .deleteFrom('search_documents')
        .where('type', '=', type)
        .where(sql<boolean>`starts_with(link, ${prefix})`)
        .execute();
    },
    /** The fingerprint recorded for a bulk source (see sourceIndexed), if any. */
    async sourceFingerprints(prefix: string): Promise<Map<string, string>> {
      const rows = await db
        .selectFrom('search_sources')
        .select(['source', 'fingerprint'])
        .where('source', 'like', `${prefix.replace(/[%_\\]/g, '\\$&')}%`)
        .execute();
      return new Map(rows.map((r) => [r.source, r.fingerprint]));
    },
    /** Records that `source` (e.g. 'documentation:<uuid>') is indexed as of `fingerprint`. */
    async sourceIndexed(source: string, fingerprint: string): Promise<void> {
      await db
        .insertInto('search_sources')
        .values({ source, fingerprint })
        .onConflict((oc) => oc.column('source').doUpdateSet({ fingerprint }))
        .execute();
    },
    async forgetSource(source: string): Promise<void> {
      await db.deleteFrom('search_sources').where('source', '=', source).execute();
    },
    /** Removes every row of `type` whose uuid is not in `keep` (a module re-syncing its whole type). */
    async retainOnly(type: SearchType, keep: readonly string[]): Promise<void> {
      let q = db.deleteFrom('search_documents').where('type', '=', type);
      if (keep.length > 0) q = q.where('uuid', 'not in', [...keep]);
      await q.execute();
    },
  };
}

/** The words of a query that the index can match: letters and digits, at most 12 of them. */
export function queryTerms(q: string): string[] {
  return (
    q
      .normalize('NFKC')
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu) ?? []
  )
    .slice(0, 12)
    .map((t) => t.slice(0, 64));
}

/**
 * Every term must match, each as a prefix ('pay' finds 'payments'), stemmed like the index. The
 * terms are letters and digits only, so they cannot break the tsquery syntax.
 */
function tsQuery(terms: readonly string[]): RawBuilder<unknown> {
  return sql.join(
    terms.map((t) => sql`to_tsquery('english', ${`${t}:*`})`),
    sql` && `,
  );
}

export interface SearchHit {
  type: SearchType;
  uuid: string;
  title: string;
  description: string;
  link: string | null;
  image: string | null;
  deprecated: boolean;
  created: Date;
}

export interface SearchPage {
  items: SearchHit[];
  count: number;
}

/**
 * Ranking reads every matching row's text vector; past this many matches it costs more than a
 * visitor waits (bench/README.md 'Site search'), and a word that common ranks nearly every match
 * alike. Such searches list the matches newest first instead, read backwards through the index on
 * `created` until the page is full.
 */
export const RANKED_MATCHES_MAX = 2000;

/**
 * One page of results: best first (rank, then newest) when the query matches at most
 * RANKED_MATCHES_MAX documents, newest first otherwise. An empty query finds nothing. The snippet
 * (ts_headline, the costly part) is made for the page's rows only.
 */
export async function searchDocuments(
  database: AnyKysely,
  options: { q: string; types?: readonly SearchType[]; limit: number; offset: number },
): Promise<SearchPage> {
  const terms = queryTerms(options.q);
  if (terms.length === 0) return { items: [], count: 0 };
  const db = searchDb(database);
  const query = tsQuery(terms);
  const count = await countOnly(db, query, options.types);
  if (count === 0 || options.offset >= count) return { items: [], count };

  const rank =
    count <= RANKED_MATCHES_MAX ? sql<number>`ts_rank_cd(document, ${query})` : sql<number>`0::real`;
  let page = db
    .selectFrom('search_documents')
    .select(['type', 'uuid', 'created', rank.as('rank')])
    .where(sql<boolean>`document @@ (${query})`);
  if (options.types && options.types.length > 0) page = page.where('type', 'in', [...options.types]);
  const rows = await db
    .with('page', () =>
      page
        .orderBy('rank', 'desc')
        .orderBy('created', 'desc')
        .orderBy('uuid')
        .limit(options.limit)
        .offset(options.offset),
    )
    .selectFrom('page')
    .innerJoin('search_documents as d', (j) =>
      j.onRef('d.type', '=', 'page.type').onRef('d.uuid', '=', 'page.uuid'),
    )
    .select([
      'd.type',
      'd.uuid',
      'd.title',
      'd.link',
      'd.image',
      'd.deprecated',
      'd.created',
      // The part of the text around the words found (tags were stripped when it was indexed).
      sql<string>`ts_headline('english', d.body, ${query}, 'StartSel="", StopSel="", MaxWords=70, MinWords=30, MaxFragments=0')`.as(
        'description',
      ),
    ])
    .orderBy('page.rank', 'desc')
    .orderBy('page.created', 'desc')
    .orderBy('page.uuid')
    .execute();
  return {
    count,
    items: rows.map((r) => ({
      type: r.type as SearchType,
      uuid: r.uuid,
      title: r.title,
      description: r.description.slice(0, SEARCH_SNIPPET_LENGTH),
      link: r.link,
      image: r.image,
      deprecated: r.deprecated,
      created: r.created,
    })),
  };
}

async function countOnly(
  db: ReturnType<typeof searchDb>,
  query: RawBuilder<unknown>,
  types: readonly SearchType[] | undefined,
): Promise<number> {
  let q = db
    .selectFrom('search_documents')
    .select(sql<string>`count(*)`.as('n'))
    .where(sql<boolean>`document @@ (${query})`);
  if (types && types.length > 0) q = q.where('type', 'in', [...types]);
  const row = await q.executeTakeFirst();
  return Number(row?.n ?? 0);
}
