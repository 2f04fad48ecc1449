/** Blog, article and basic pages, FAQs, Getting Started and cloud documents (spec B 2.3-2.5, 2.8, 8). */
export const contentMessages = {
  // Blog (spec B 2.4, 8)
  blogTitle: 'Blog',
  internalBlogTitle: 'Internal blog',
  searchArticles: 'Search articles',
  categories: 'Categories',
  chooseCategories: 'Filter by category',
  removeCategory: 'Remove {{name}}',
  /** The spec's text, trailing space included. */
  noArticles: 'No articles ',
  viewAllBlogs: 'VIEW ALL BLOGS',
  readMore: 'READ MORE',
  blogPages: 'Pages of articles',
  byAuthor: 'By {{name}}',
  latestPosts: 'LATEST BLOG POSTS',

  // Article and basic page (spec B 2.8)
  backToBlog: 'BACK TO BLOG',
  home: 'Home',
  tableOfContents: 'On this page',
  printPdf: 'PRINT TO PDF',
  preparingPdf: 'Preparing the PDF…',
  downloadPdf: 'DOWNLOAD PDF',
  pageNumber: 'Page {{page}} of {{pages}}',

  // FAQs (spec B 2.5)
  faqTitle: 'FAQs',
  searchFaqs: 'Search the FAQs',
  otherQuestions: 'Other questions',
  noFaqs: 'No questions match your search.',

  // Getting Started (spec B 2.3)
  startedTitle: 'Getting Started',
  allDone: 'ALL DONE - You are signed up, registered and ready to go.',
  authorization: 'Authorization',
  step: 'Step {{number}}',

  // Cloud documents (spec B 1, 2.8, 7, 8)
  cloudDocTitle: 'Cloud document',
  authenticateWithGoogle: 'AUTHENTICATE WITH GOOGLE',
  cloudDocsNotConfigured:
    'Cloud documents are not set up on this portal. Ask the portal administrator to configure the Google Drive connection.',
  cloudDocSignIn: 'Sign in with Google to read this document.',
  cloudDocFailed: 'Something went wrong.',
  signingIn: 'Signing in…',
  loadingDocument: 'Loading the document…',
} as const;
