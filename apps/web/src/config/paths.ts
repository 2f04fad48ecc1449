/** Every route path of the web app, defined once (spec A 2, spec B 2.1). */
export const paths = {
  home: '/',
  notFound: '/404',
  login: '/login',
  loginCallback: '/oauth2/callback',
  redocCallback: '/oauth2/redoc-callback',
  cookieSettings: '/cookie-settings',
  privacy: '/privacy',
  terms: '/terms',
  started: '/started',
  blog: '/blog',
  /** The internal blog (spec B 2.4: a URL containing 'internal'). */
  internalBlog: '/blog/internal',
  googleDoc: (fileId: string) => `/google-doc/${encodeURIComponent(fileId)}`,
  faq: '/faq-page',
  search: '/search',
  support: '/support',
  apiProducts: '/apiProducts',
  apiProduct: (id: string, viewMode?: string) => `/apiProduct/${id}${viewMode ? `/${viewMode}` : ''}`,
  documentation: (id: string) => `/documentation/${id}`,
  organizations: '/organizations',
  organization: (id: string) => `/organization/${id}`,
  organizationCreate: '/organization/create',
  organizationEdit: (id: string) => `/organization/${id}/edit`,
  organizationMembers: (id: string) => `/organization/${id}/members`,
  organizationCertificates: (id: string) => `/organization/${id}/certificates`,
  organizationContent: (id: string) => `/organization/${id}/content`,
  organizationContentAdd: (id: string) => `/organization/${id}/content/add`,
  /** The organizations list in create-application mode: a row leads to the create form (spec A 2). */
  organizationsForNewApplication: '/organizations?createApplication=1',
  /** Spec A 2: an application's link from an organization carries the organization query parameter. */
  applicationInOrganization: (id: string, organizationId: string) =>
    `/application/${id}?organization=${encodeURIComponent(organizationId)}`,
  applicationCreateIn: (organizationId: string) =>
    `/application?organization=${encodeURIComponent(organizationId)}`,
  /** The provider console's home (issue 27). */
  console: '/admin',
  /** Every page of the console: the developer router's one route for them (app/console-routes.tsx). */
  consolePages: '/admin/*',
  /** The console's users and roles (features/console-users). */
  adminUsers: '/admin/users',
  adminUser: (uuid: string) => `/admin/users/${uuid}`,
  adminUserRoute: '/admin/users/:userId',
  adminAudit: '/admin/audit',
  /** The console's API products: versions, drafts, notices (features/console-apis). */
  adminApis: '/admin/apis',
  /** One API product's fields in the console (features/console-apis). */
  adminProductNew: '/admin/apis/products/new',
  adminProductRoute: '/admin/apis/products/:productId',
  adminProduct: (uuid: string) => `/admin/apis/products/${uuid}`,
  /** A draft's documentation before it is published (features/products, API managers). */
  adminDraftPreviewRoute: '/admin/apis/:alias/drafts/:draftId/preview',
  adminDraftPreview: (alias: string, draftId: string) =>
    `/admin/apis/${encodeURIComponent(alias)}/drafts/${encodeURIComponent(draftId)}/preview`,
  /** The console's comparison tables (features/console-apis). */
  adminComparisonNew: '/admin/apis/comparison-tables/new',
  adminComparisonRoute: '/admin/apis/comparison-tables/:tableId',
  adminComparison: (uuid: string) => `/admin/apis/comparison-tables/${uuid}`,
  adminOutbox: '/admin/outbox',
  adminOutboxMessage: (id: string) => `/admin/outbox/${id}`,
  /** Route patterns of the application screens (features/applications/routes.tsx). */
  applicationCreateRoute: '/application',
  applicationViewRoute: '/application/:applicationId',
  applicationEditRoute: '/application/:applicationId/edit',
  goLiveRoute: '/goLive/:applicationId',
  adminGoLive: '/admin/go-live',
  adminImportApi: '/admin/import-api',
  /** The console's articles (issue 27). */
  adminContent: '/admin/content',
  adminArticleNew: '/admin/content/articles/new',
  adminArticleRoute: '/admin/content/articles/:articleId',
  adminArticle: (id: string) => `/admin/content/articles/${id}`,
  /** The site's own texts: carousel, banners, footer, getting started, cookie popup. */
  adminSiteTexts: '/admin/content/site',
  /** The console's basic pages (issue 27). */
  adminPages: '/admin/content/pages',
  adminPageNew: '/admin/content/pages/new',
  adminPageRoute: '/admin/content/pages/:pageId',
  adminPage: (id: string) => `/admin/content/pages/${id}`,
  /** The console's FAQ (issue 27). */
  adminFaq: '/admin/content/faq',
  adminFaqNew: '/admin/content/faq/new',
  adminFaqQuestionRoute: '/admin/content/faq/:faqId',
  adminFaqQuestion: (id: string) => `/admin/content/faq/${id}`,
  adminFaqCategoryRoute: '/admin/content/faq/categories/:categoryId',
  adminFaqCategory: (id: string) => `/admin/content/faq/categories/${id}`,
  /** The console's news (blog) categories (issue 27). */
  adminNewsCategories: '/admin/content/categories',
  adminNewsCategoryRoute: '/admin/content/categories/:categoryId',
  adminNewsCategory: (id: string) => `/admin/content/categories/${id}`,
  /** The console's Quick Start stories (issue 27). */
  adminQuickstart: '/admin/content/quickstart',
  adminStoryNew: '/admin/content/quickstart/new',
  adminStoryRoute: '/admin/content/quickstart/:storyId',
  adminStory: (id: string) => `/admin/content/quickstart/${id}`,
  profile: '/profile',
  // Support (issue 14).
  supportContact: '/support/contact',
  supportTicketCreate: '/support/ticket/create',
  supportTickets: '/support/ticket/all',
  supportTicketRoute: '/support/ticket/:ticketId',
  supportTicket: (id: string | number, created = false) =>
    `/support/ticket/${id}${created ? '?created=true' : ''}`,
  adminSupport: '/admin/support',
  adminSupportStaff: '/admin/support/staff',
  // Forums (spec B 2.1, 2.13).
  forum: '/forum',
  forumRoute: '/forum/:forum_id',
  forumOf: (id: string) => `/forum/${id}`,
  forumNewest: '/forum/new',
  forumPopular: '/forum/most-popular',
  forumUnanswered: '/forum/unanswered',
  forumTopicRoute: '/forum-topic/:forum_id',
  forumTopic: (id: string) => `/forum-topic/${id}`,
  forumCreateTopicRoute: '/forum-create-topic/:forum_id',
  forumCreateTopic: (id: string) => `/forum-create-topic/${id}`,
} as const;

/** The login page with a return path (spec B 2.1 'LOGIN TO VIEW'). */
export function loginPath(returnTo: string, screen?: 'signup'): string {
  const q = new URLSearchParams();
  if (returnTo && returnTo !== '/') q.set('returnTo', returnTo);
  if (screen) q.set('screen', screen);
  const s = q.toString();
  return s ? `${paths.login}?${s}` : paths.login;
}
