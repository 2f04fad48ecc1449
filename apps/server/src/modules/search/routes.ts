import { SEARCH_PAGE_SIZE, SEARCH_TYPES, type SearchType } from '@portico/contracts/constants';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { format } from '@portico/contracts/format';
import { en } from '@portico/contracts/messages';
import { DEFAULT_LOCALE } from '@portico/contracts/locales';
import { HttpError } from '../../lib/errors.ts';
import { readerLocale } from '../../lib/translations.ts';
import { searchDocuments } from './service.ts';

/** The largest page a caller may ask for, and how deep it may page (a search is no export). */
const MAX_PAGE_SIZE = 50;
const MAX_OFFSET = 10_000;
const MAX_QUERY_LENGTH = 200;

const integer = (name: string, min: number, max: number, fallback: number) =>
  z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v === '') return fallback;
      const n = Number(v);
      if (!/^\d+$/.test(v) || n < min || n > max) {
        ctx.addIssue({ code: 'custom', message: format(en.api.numberOutOfRange, { name, min, max }) });
        return z.NEVER;
      }
      return n;
    });

const searchQuery = z.object({
  q: z
    .string()
    .max(MAX_QUERY_LENGTH, format(en.api.searchQueryTooLong, { max: MAX_QUERY_LENGTH }))
    .optional()
    .default(''),
  pageSize: integer('pageSize', 1, MAX_PAGE_SIZE, SEARCH_PAGE_SIZE),
  // Items to skip: pageSize x page, as the spec's paging (B 7) counts offsets.
  pageOffset: integer('pageOffset', 0, MAX_OFFSET, 0),
  type: z
    .string()
    .optional()
    .transform((v, ctx): SearchType | 'ALL' => {
      if (v === undefined || v === '' || v.toUpperCase() === 'ALL') return 'ALL';
      if ((SEARCH_TYPES as readonly string[]).includes(v)) return v as SearchType;
      ctx.addIssue({
        code: 'custom',
        message: format(en.api.searchType, { types: SEARCH_TYPES.join(', ') }),
      });
      return z.NEVER;
    }),
  pagination: z.enum(['true', 'false'], en.api.paginationBoolean).optional(),
  // The reader's language (decision 065), checked by readerLocale.
  langcode: z.unknown().optional(),
});

/**
 * GET /phpsdk/search (spec B 7): q, pageSize, pageOffset, type, pagination=true, and the reader's
 * language `langcode` (decision 065: its rows, else the default language's). Public: the index
 * holds only what anonymous visitors may read (owners remove hidden things from it).
 */
export function searchRoutes(app: FastifyInstance) {
  app.get('/phpsdk/search', async (request, reply) => {
    const parsed = searchQuery.safeParse(request.query ?? {}, { reportInput: true });
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      throw new HttpError(400, issue.message, { parameter: String(issue.path[0] ?? 'q'), issues: [issue] });
    }
    const { q, pageSize, pageOffset, type, pagination } = parsed.data;
    const langcode = readerLocale(parsed.data.langcode);
    const page = await searchDocuments(app.db, {
      q,
      langcode,
      types: type === 'ALL' ? undefined : [type],
      limit: pageSize,
      offset: pageOffset,
      maxResults: app.config.searchResultsMax,
    });
    const link = (offset: number) => {
      const params = new URLSearchParams({
        q,
        pageSize: String(pageSize),
        pageOffset: String(offset),
        type,
        pagination: 'true',
        ...(langcode === DEFAULT_LOCALE ? {} : { langcode }),
      });
      return { href: `/phpsdk/search?${params.toString()}` };
    };
    const links: Record<string, { href: string }> = {};
    if (pagination !== 'false') {
      links.self = link(pageOffset);
      if (pageOffset + pageSize < page.count) links.next = link(pageOffset + pageSize);
      // From past the last result served (past the count), back to the last page that has results.
      const lastPage = Math.max(0, Math.ceil(page.count / pageSize) - 1) * pageSize;
      if (pageOffset > 0) links.prev = link(Math.max(0, Math.min(pageOffset - pageSize, lastPage)));
    }
    return reply.header('Cache-Control', 'no-cache').send({
      data: page.items.map((item) => ({ ...item, created: item.created.toISOString() })),
      // countExact false: at least `count` documents match, and only the first `count` are served.
      meta: { count: page.count, countExact: page.countExact, query: q, type, pageSize, pageOffset },
      links,
    });
  });
}
