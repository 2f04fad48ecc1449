/** Business constants of spec A and B section 9, in one place. */
export const SITE_ROLES = ['user', 'anonymous'] as const;
export type SiteRole = (typeof SITE_ROLES)[number];

export const COOKIE_EXPIRY_DAYS = 365;
export const COOKIE_SAVE_NOTICE_MS = 2000;
export const ANALYTICS_COOKIES = ['_ga', '_gid', '_gat', 'AMP_TOKEN'] as const;
export const PRELOADER_REMOVE_MS = 2000;
export const MESSAGE_TIMEOUT_MS = 10_000;
export const COPYRIGHT_YEAR = 2019;
export const DATE_FORMAT = 'DD-MM-YYYY';
export const PERSIST_VERSION = 1;
export const DEFAULT_PAGE_SIZE = 5;
export const ORG_DEFAULT_PAGE_SIZE = 20;
export const SEARCH_PAGE_SIZE = 10;
/** Spec B 9: what the site search finds, by type (spec B 2.6 'Search in'). */
export const SEARCH_TYPES = ['article', 'page', 'faq', 'forum', 'api_product', 'api_endpoint'] as const;
export type SearchType = (typeof SEARCH_TYPES)[number];
/** Spec B 9: the search snippet is cut to 500 characters, tags stripped. */
export const SEARCH_SNIPPET_LENGTH = 500;
export const BLOG_PAGE_SIZE = 5;
export const WIDE_SCREEN_MIN_PX = 900;
export const MOBILE_BREAKPOINT_PX = 767;
export const ENVIRONMENTS = ['DEVELOPMENT', 'PRODUCTION'] as const;
export const GRANT_TYPES = ['authorization_code', 'client_credentials'] as const;
/** Paths that the newsletter sign-up is hidden on (spec B 1). */
export const NEWSLETTER_HIDDEN_PREFIXES = ['/application', '/apiProduct', '/documentation'] as const;

// API products and documentation (spec B 9).
/** Products per page of the /apiProducts list (the spec leaves the size open). */
export const PRODUCTS_PAGE_SIZE = 6;
/** Card description length; between the two widths below it is cut shorter. */
export const CARD_DESCRIPTION_MAX = 100;
export const CARD_DESCRIPTION_MAX_MEDIUM = 50;
export const CARD_MEDIUM_MIN_PX = 767;
export const CARD_MEDIUM_MAX_PX = 1590;
/** A card title word longer than this is cut. */
export const CARD_TITLE_WORD_MAX = 17;
/** The deprecated-version popup: shown 20 s, 0.5 s transition. */
export const POPUP_MS = 20_000;
export const POPUP_TRANSITION_MS = 500;
/** The title of the documentation whose page has no breadcrumb. */
export const GET_TOKEN_API_TITLE = 'Get Token API';

/** Applications (spec A 9). */
export const TABLE_SEARCH_DEBOUNCE_MS = 200;
export const SEARCH_HIGHLIGHT_MIN_LENGTH = 3;
export const APPLICATIONS_PAGE_SIZE = 20;
export const ANALYTICS_DEFAULT_RANGE_MONTHS = 1;
/** Longest fromDate..toDate range the analytics calls accept. */
export const ANALYTICS_MAX_RANGE_DAYS = 366;
export const ANALYTICS_CHART_HEIGHTS_PX = { endpoints: 600, daily: 400 } as const;
/** The try-out console's redirect URI, relative to the portal's base path. */
export const REDOC_CALLBACK_PATH = 'oauth2/redoc-callback';

/** Public content (spec B 9). */
export const SCROLLSPY_BEFORE = 6;
export const SCROLLSPY_AFTER = 12;
/** The last heading becomes active within this many pixels of the bottom of the page. */
export const SCROLLSPY_BOTTOM_PX = 60;
export const PDF_EXPORT_DELAY_MS = 1000;
/** Images in an exported PDF are scaled to fit this box (points). */
export const PDF_IMAGE_MAX = { width: 450, height: 450 } as const;
/** The carousel's step width: this share of (window width - 50). */
export const CAROUSEL_STEP_SHARE = 0.215;
export const CAROUSEL_STEP_OFFSET_PX = 50;
