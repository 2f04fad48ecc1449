/** The site search page (spec B 2.6, 8). */
export const searchMessages = {
  title: 'Search',
  queryLabel: 'Search the portal',
  placeholder: 'Search for APIs, endpoints, articles and pages',
  submit: 'Search',
  searchIn: 'Search in',
  types: {
    ALL: 'ALL',
    article: 'Article',
    page: 'Basic Page',
    faq: 'FAQ',
    forum: 'Forum',
    api_product: 'Product',
    api_endpoint: 'Api',
  },
  emptyQuery: 'Type something in the search bar...',
  noResultsTitle: 'Your search yielded no results',
  noResultsHint:
    'Check if your spelling is correct and remove quotes around phrases to search for each word individually.',
  resultCount: '{{count}} results for “{{query}}”',
  oneResult: '1 result for “{{query}}”',
  /** More matches than one search serves (the server's SEARCH_RESULTS_MAX): a lower bound. */
  resultCountAtLeast: '{{count}}+ results for “{{query}}”',
  deprecated: 'Deprecated',
  pagination: 'Pages of search results',
  failed: 'Something went wrong.',
};
