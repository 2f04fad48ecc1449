import { SEARCH_SNIPPET_LENGTH, type SearchType } from '@portico/contracts/constants';
import { sql, type RawBuilder } from 'kysely';
import { searchDb, type AnyKysely } from './tables.ts';

/** Rows per statement when writing to the index (see upsert). */
const UPSERT_BATCH = 100;

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
      for (let i = 0; i < list.length; i += UPSERT_BATCH) {
        const batch = list.slice(i, i + UPSERT_BATCH);
        await db
          .insertInto('search_documents')
          .values(batch.map(row))
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

/** The text a row's search vectors are made of. */

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

/** The most results one search serves by default (SEARCH_RESULTS_MAX of the configuration). */
export const SEARCH_RESULTS_MAX = 1000;

export interface SearchPage {
  items: SearchHit[];
  /** How many documents match, at most SEARCH_RESULTS_MAX: the results served for one query. */
  count: number;
  /** False when more documents match than SEARCH_RESULTS_MAX: `count` is then a lower bound. */
  countExact: boolean;
}

/**
 * One page of the results for a query: never more than SEARCH_RESULTS_MAX results, so that no query
 * costs more than visiting that many matches (decision 029, bench/README.md 'Site search'):
 *
 * - The count visits at most SEARCH_RESULTS_MAX + 1 matches; past that the answer says "at least".
 * - At most SEARCH_RESULTS_MAX matches: all are ranked (ts_rank_cd over title A, keywords B, text C),
 *   then newest first.
 * - More: the documents whose title or keywords hold every word come first (found through their
 *   own small index and ranked on it, at most SEARCH_RESULTS_MAX of them), then the other matches
 *   newest first, read backwards through the index on `created` until the page is full. A word
 *   that common would rank the rest nearly alike anyway.
 *
 * An empty query finds nothing. The snippet (ts_headline, the costly part) is made for the page's
 * rows only.
 */
export async function searchDocuments(
  database: AnyKysely,
  options: {
    q: string;
    types?: readonly SearchType[];
    limit: number;
    offset: number;
    /** SEARCH_RESULTS_MAX of the configuration. */
    maxResults?: number;
  },
): Promise<SearchPage> {
  const max = options.maxResults ?? SEARCH_RESULTS_MAX;
  const terms = queryTerms(options.q);
  if (terms.length === 0) return { items: [], count: 0, countExact: true };
  const db = searchDb(database);
  const query = tsQuery(terms);
  const types = options.types && options.types.length > 0 ? [...options.types] : undefined;
  const found = await countUpTo(db, sql`document`, query, types, max + 1);
  const count = Math.min(found, max);
  const countExact = found <= max;
  const { offset } = options;
  // Never past the count: the results beyond SEARCH_RESULTS_MAX are not served.
  const limit = Math.min(options.limit, count - offset);
  if (limit <= 0) return { items: [], count, countExact };

  const keys = countExact
    ? await rankedPage(db, query, types, limit, offset)
    : await headingFirstPage(db, query, types, limit, offset, max);
  const items = await pageRows(db, query, keys);
  return { items, count, countExact };
}

interface PageKey {
  type: string;
  uuid: string;
}

function matching(
  db: ReturnType<typeof searchDb>,
  vector: RawBuilder<unknown>,
  query: RawBuilder<unknown>,
  types: string[] | undefined,
) {
  let q = db.selectFrom('search_documents').where(sql<boolean>`${vector} @@ (${query})`);
  if (types) q = q.where('type', 'in', types);
  return q;
}

/** How many documents match, counting at most `max`: the rows past it are never visited. */
async function countUpTo(
  db: ReturnType<typeof searchDb>,
  vector: RawBuilder<unknown>,
  query: RawBuilder<unknown>,
  types: string[] | undefined,
  max: number,
): Promise<number> {
  const row = await db
    .selectFrom(
      matching(db, vector, query, types)
        .select(sql`1`.as('one'))
        .limit(max)
        .as('m'),
    )
    .select(sql<string>`count(*)`.as('n'))
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** Every match ranked (there are at most SEARCH_RESULTS_MAX), then newest first. */
async function rankedPage(
  db: ReturnType<typeof searchDb>,
  query: RawBuilder<unknown>,
  types: string[] | undefined,
  limit: number,
  offset: number,
): Promise<PageKey[]> {
  return matching(db, sql`document`, query, types)
    .select(['type', 'uuid'])
    .orderBy(sql`ts_rank_cd(document, ${query})`, 'desc')
    .orderBy('created', 'desc')
    .orderBy('uuid')
    .limit(limit)
    .offset(offset)
    .execute();
}

/**
 * More than SEARCH_RESULTS_MAX matches: the heading matches (every word in the title or keywords)
 * ranked first, then the rest newest first. Both lists are bounded: the first by
 * SEARCH_RESULTS_MAX, the second by the page, read through the index on `created`.
 */
async function headingFirstPage(
  db: ReturnType<typeof searchDb>,
  query: RawBuilder<unknown>,
  types: string[] | undefined,
  limit: number,
  offset: number,
  max: number,
): Promise<PageKey[]> {
  const headingCount = await countUpTo(db, sql`heading`, query, types, max);
  const keys: PageKey[] = [];
  if (offset < headingCount) {
    keys.push(
      ...(await db
        .with('h', () =>
          matching(db, sql`heading`, query, types)
            .select(['type', 'uuid', 'created', sql<number>`ts_rank_cd(heading, ${query})`.as('rank')])
            .limit(max),
        )
        .selectFrom('h')
        .select(['type', 'uuid'])
        .orderBy('rank', 'desc')
        .orderBy('created', 'desc')
        .orderBy('uuid')
        .limit(limit)
        .offset(offset)
        .execute()),
    );
  }
  const rest = limit - keys.length;
  if (rest > 0) {
    keys.push(
      ...(await matching(db, sql`document`, query, types)
        .where(sql<boolean>`not (heading @@ (${query}))`)
        .select(['type', 'uuid'])
        .orderBy('created', 'desc')
        .orderBy('uuid')
        .limit(rest)
        .offset(Math.max(0, offset - headingCount))
        .execute()),
    );
  }
  return keys;
}

/** The page's rows in the order of `keys`, each with its snippet (made for these rows only). */
async function pageRows(
  db: ReturnType<typeof searchDb>,
  query: RawBuilder<unknown>,
  keys: PageKey[],
): Promise<SearchHit[]> {
  if (keys.length === 0) return [];
  const rows = await db
    .selectFrom('search_documents')
    .where((eb) => eb.or(keys.map((k) => eb.and([eb('type', '=', k.type), eb('uuid', '=', k.uuid)]))))
    .select([
      'type',
      'uuid',
      'title',
      'link',
      'image',
      'deprecated',
      'created',
      // The part of the text around the words found (tags were stripped when it was indexed).
      sql<string>`ts_headline('english', body, ${query}, 'StartSel="", StopSel="", MaxWords=70, MinWords=30, MaxFragments=0')`.as(
        'description',
      ),
    ])
    .execute();
  const byKey = new Map(rows.map((r) => [`${r.type}:${r.uuid}`, r]));
  return keys.flatMap((k) => {
    const r = byKey.get(`${k.type}:${k.uuid}`);
    return r
      ? [
          {
            type: r.type as SearchType,
            uuid: r.uuid,
            title: r.title,
            description: r.description.slice(0, SEARCH_SNIPPET_LENGTH),
            link: r.link,
            image: r.image,
            deprecated: r.deprecated,
            created: r.created,
          },
        ]
      : [];
  });
}
