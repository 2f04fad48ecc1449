import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { SEARCH_PAGE_SIZE, type SearchType } from '@portico/contracts/constants';
import { readerLanguage, type TranslationMarker } from '../../components/content/translation';
import { apiRequest } from '../../lib/api-client';

/** One result of GET /phpsdk/search (spec B 3 'Search result'). */
export interface SearchResult {
  uuid: string;
  title: string;
  link: string | null;
  type: SearchType;
  description: string;
  image: string | null;
  deprecated: boolean;
  created: string;
  /** The language of the title and snippet (decision 065): a fallback when not the page's. */
  translation?: TranslationMarker;
}

export interface SearchAnswer {
  data: SearchResult[];
  meta: {
    /** Matches, at most the server's SEARCH_RESULTS_MAX: the results it serves for this query. */
    count: number;
    /** False when more documents match than the server serves: `count` is a lower bound. */
    countExact: boolean;
    query: string;
    type: SearchType | 'ALL';
    pageSize: number;
    pageOffset: number;
  };
  links: { self?: { href: string }; next?: { href: string }; prev?: { href: string } };
}

/**
 * One page of results. Nothing is asked while the query is blank (spec B 4: a request is sent only
 * when the typed text is not empty); the previous page stays on screen while the next one loads.
 */
export function useSearch(query: string, type: SearchType | 'ALL', page: number) {
  const q = query.trim();
  // In the page's language (decision 065): its rows, else the default language's, marked.
  const language = readerLanguage();
  return useQuery({
    queryKey: ['search', q, type, page, language],
    enabled: q !== '',
    placeholderData: keepPreviousData,
    queryFn: ({ signal }) =>
      apiRequest<SearchAnswer>('/phpsdk/search', {
        query: {
          q,
          pageSize: String(SEARCH_PAGE_SIZE),
          pageOffset: String(page * SEARCH_PAGE_SIZE),
          type,
          pagination: 'true',
          ...language,
        },
        signal,
      }),
  });
}
