/**
 * The Markdown versions of the portal's pages and `/llms.txt` (issue 30; server module
 * modules/markdown). The reference's own words (parameters, responses…) are the `products` area's.
 */
export const markdownMessages = {
  llmsSummary:
    'The developer portal: API products, their OpenAPI documentation (with a sandbox), articles, pages and answers to frequent questions. Every page below is Markdown.',
  sectionApis: 'APIs',
  sectionProducts: 'API products',
  sectionArticles: 'Articles',
  sectionPages: 'Pages',
  sectionFaq: 'FAQ',
  /** llms.txt's line to the same list in the portal's other languages: `links` are Markdown links. */
  otherLanguages: 'In other languages: {{links}}',
  /** The FAQ page's line in llms.txt. */
  faqCount: '{{count}} questions and answers',
  faqCount_one: '{{count}} question and answer',
  operationCount: '{{count}} operations',
  operationCount_one: '{{count}} operation',
  htmlPage: 'Web page: {{url}}',
  operationOf: 'An operation of [{{title}}]({{url}}).',
  operationMarkdown: 'Markdown of this operation: {{url}}',
  operations: 'Operations',
  operationId: 'Operation ID',
  sandboxServers: 'Servers (the sandbox)',
  noAuthentication: 'No token is needed.',
  scopesOf: 'Scopes: {{scopes}}',
  flow: '{{flow}} flow',
  tokenUrl: 'Token URL: {{url}}',
  authorizationUrl: 'Authorization URL: {{url}}',
  inLabel: 'In',
  yes: 'yes',
  no: 'no',
  requestBodyRequired: 'required',
  schemaOutline: 'Schema',
  sample: 'Sample',
  documentations: 'Documentation',
  published: 'Published {{date}}',
  by: 'by {{author}}',
  category: 'Category: {{category}}',
  uncategorised: 'Other questions',
  deprecatedProduct: 'This version is deprecated.',
  sampleCut: '(sample cut at {{count}} characters)',
  /** The answer to an address in .md that names no public page. */
  notFound: 'We were not able to find this page.',
};
