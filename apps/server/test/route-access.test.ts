import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { RouteOptions } from 'fastify';
import { ASSIGNABLE_ROLES, type ProviderRole } from '@portico/contracts/provider-roles';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webAppBuilt } from '../src/app.ts';
import { TestClient } from './http-client.ts';
import { connectAssistant, mcpUrl } from './mcp-fixtures.ts';
import { createOrg, signedInUser } from './org-fixtures.ts';
import { startTestApp, type TestApp } from './test-app.ts';

/**
 * The portal's route inventory and who may call each route. Every route the server registers must
 * be listed here with its access level, so a new endpoint cannot land without a decision about who
 * may call it, and the decision is checked over real HTTP:
 *
 * - public:   anyone; an anonymous call never fails with a 5xx.
 * - user:     a signed-in user; anonymous callers get 401 or 403 (404 where a resource addressed
 *             by a random id is hidden from everyone who may not see it): never data, never a 5xx.
 * - admin:    a provider administrator; anonymous callers get 401/403 and a signed-in developer
 *             403 (or 404 where the resource's existence is itself hidden), and so does everyone
 *             with another provider role.
 * - console:<role>: a console route (issue 27) for administrators and that provider role (several
 *             roles joined by '+'): everyone else (a developer, the other roles) gets 403 or 404,
 *             and a refused call changes nothing (the data counters and the audit log stay).
 * - protocol: an OAuth/OIDC endpoint, a page of the identity provider (sign-in, sign-up, password
 *             reset: HTML forms bound to an interaction or a mailed token) or the sandbox, guarded
 *             by its own protocol; covered by the authz-server, identity and gateway tests.
 *
 * Which user may act on which organization, member or application (the object-level rules of
 * spec A 6) is the matrix in organizations.test.ts, applications*.test.ts and authz.test.ts.
 */
type RoleName = Exclude<ProviderRole, 'administrator'>;
type Access = 'public' | 'user' | 'admin' | 'protocol' | `console:${string}`;

/** The provider roles a route of `access` admits (administrators always), or undefined for none. */
function providerRolesOf(access: Access | undefined): ProviderRole[] | undefined {
  if (access === 'admin') return ['administrator'];
  if (!access?.startsWith('console:')) return undefined;
  return ['administrator', ...(access.slice('console:'.length).split('+') as RoleName[])];
}

const POLICY: Record<string, Access> = {
  'GET /': 'public',
  'GET /*': 'public',
  'GET /healthz': 'public',
  // Markdown of the public pages for assistants (modules/markdown, issue 30).
  'GET /llms.txt': 'public',
  'GET /llms-full.txt': 'public',
  'GET /de/llms.txt': 'public',
  'GET /de/llms-full.txt': 'public',
  'GET /readyz': 'public',
  // The MCP server (modules/mcp, decision 056): guarded by its own protocol, the MCP authorization
  // (a bearer token for /mcp; the session cookie is never read, so no CSRF token either). Anyone
  // may connect; the tools that act for a user need the token (MCP_TOOLS below, mcp.test.ts).
  'POST /mcp': 'protocol',
  'GET /mcp': 'protocol',
  'DELETE /mcp': 'protocol',
  'GET /.well-known/oauth-protected-resource': 'public',
  'GET /.well-known/oauth-protected-resource/mcp': 'public',
  // The identity provider's metadata where OAuth clients look for it (RFC 8414 3.1).
  'GET /.well-known/oauth-authorization-server/idp': 'public',
  'GET /.well-known/openid-configuration/idp': 'public',
  'GET /api/sandbox/ca.pem': 'public',
  'GET /session/token': 'public',
  'GET /session/user': 'public',
  'GET /user/login_status': 'public',
  'GET /user/logout': 'public',
  'GET /openid-connect/authorization-info/generic': 'public',
  'GET /openid-connect/generic': 'public',
  'GET /jsonapi/node/api_product': 'public',
  'GET /jsonapi/node/api_product/:id': 'public',
  'GET /jsonapi/node/api_documentation': 'public',
  'GET /jsonapi/node/api_documentation/:id': 'public',
  'GET /jsonapi/node/comparison_table/:id': 'public',
  'GET /jsonapi/node/change_log': 'public',
  'GET /jsonapi/taxonomy_term/product_categories': 'public',
  'GET /jsonapi/taxonomy_term/product_categories/:id': 'public',
  'GET /jsonapi/group_role/group_role': 'public',
  'GET /block-layout': 'public',
  'GET /phpsdk/cookies-consent': 'public',
  'GET /phpsdk/products/getProductUuid': 'public',
  'GET /phpsdk/app-analytics/enabled': 'public',
  'POST /api/newsletter': 'public',
  'GET /api/products/:id/newest-version': 'public',
  'GET /api/swagger': 'public',
  'GET /api/apidocs/:alias/index': 'public',
  'GET /api/apidocs/:alias/operations/:key': 'public',
  'GET /api/apidocs/:alias/download/original': 'public',
  'GET /api/apidocs/:alias/download/:format': 'public',
  'GET /catalog/images/:name': 'public',
  'GET /authorize': 'public',
  // Finds the signed-in user only; anonymous callers get an empty list (identity.test.ts).
  'GET /jsonapi/user/user': 'public',

  'POST /user/verification-mail': 'user',
  'PATCH /jsonapi/user/user/:uuid': 'user',
  'GET /jsonapi/group/organization': 'user',
  'POST /jsonapi/group/organization': 'user',
  'GET /jsonapi/group/organization/:uuid': 'user',
  'PATCH /jsonapi/group/organization/:uuid': 'user',
  'POST /jsonapi/group/organization/:field': 'user',
  'DELETE /jsonapi/group/organization/:uuid/delete_custom': 'user',
  'POST /jsonapi/group/organization/:uuid/:field': 'user',
  'GET /jsonapi/group_content/organization-group_membership': 'user',
  'PATCH /jsonapi/group_content/organization-group_membership/:uuid': 'user',
  'DELETE /jsonapi/group_content/organization-group_membership/:uuid': 'user',
  'GET /jsonapi/node/application/:id': 'user',
  'DELETE /jsonapi/node/application/:id': 'user',
  'PATCH /jsonapi/node/application/:id/edit_app_custom': 'user',
  'POST /jsonapi/node/go_live_form': 'user',
  'GET /phpsdk/certificates/:id/validate': 'user',
  'GET /api/organizations/:org/certificates': 'user',
  'POST /api/organizations/:org/certificates': 'user',
  'POST /api/organizations/:org/certificates/:id/revoke': 'user',
  'GET /api/applications/:id/psd2-certificate': 'user',
  'PUT /api/applications/:id/psd2-certificate': 'user',
  'POST /phpsdk/organization/invite': 'user',
  'POST /phpsdk/organization/invite-resend': 'user',
  'GET /phpsdk/organization/apps': 'user',
  'GET /api/applications/:id/notices': 'user',
  'GET /api/applications/:id/token-security': 'user',
  'PUT /api/applications/:id/token-security': 'user',
  'POST /phpsdk/organization/apps/create': 'user',
  'GET /phpsdk/app-analytics/aggregates': 'user',
  'GET /phpsdk/app-analytics/sumAggregates': 'user',
  'POST /api/application': 'user',
  'POST /secret/reset': 'user',
  'GET /api/application/:application/software-statement': 'user',
  'POST /secret/delete': 'user',
  // Client secret rotation with overlap (issue 28).
  'GET /api/applications/:id/secrets': 'user',
  'POST /api/applications/:id/secrets': 'user',
  'DELETE /api/applications/:id/secrets/:secretId': 'user',
  'GET /files/:uuid/:name': 'user',

  'GET /admin-api/outbox': 'admin',
  'GET /admin-api/outbox/:id': 'admin',
  'GET /admin-api/go-live': 'console:go_live_reviewer',
  'GET /admin-api/go-live/:id': 'console:go_live_reviewer',
  'GET /admin-api/go-live/:id/documents/:file': 'console:go_live_reviewer',
  'POST /admin-api/go-live/:id/approve': 'console:go_live_reviewer',
  'POST /admin-api/go-live/:id/reject': 'console:go_live_reviewer',
  'PUT /admin-api/app-analytics': 'admin',
  // The console's dashboard (issue 27): administrators only.
  'GET /admin-api/dashboard': 'admin',
  'POST /admin-api/catalog/import-api': 'console:api_manager',

  // Site search (modules/search).
  'GET /phpsdk/search': 'public',
  // Reference (issue 11): the generated image of a product created by import-api.
  'GET /catalog/generated-images/:name': 'public',
  // Try-out console (issue 12): the signed-in user's own stored history.
  'GET /api/tryout/history': 'user',
  'PUT /api/tryout/history/:uuid': 'user',
  'DELETE /api/tryout/history/:uuid': 'user',
  'DELETE /api/tryout/history': 'user',
  // Support: contact form, captcha, tickets, the provider's queue (issue 14, helper E).
  'GET /api/captcha/challenge': 'public',
  'POST /contact_message': 'public',
  'GET /api/support/me': 'user',
  'GET /api/support_ticket': 'user',
  'POST /api/support_ticket/create': 'user',
  'GET /api/support_ticket/:id': 'user',
  'PATCH /api/support_ticket/:id': 'user',
  'POST /api/support_ticket/:id/reply': 'user',
  'POST /api/support_ticket/file': 'user',
  'GET /api/support_ticket/:id/files/:uuid': 'user',
  'GET /admin-api/content/articles': 'console:content_editor',
  'POST /admin-api/content/articles': 'console:content_editor',
  'GET /admin-api/content/articles/:id': 'console:content_editor',
  'PATCH /admin-api/content/articles/:id': 'console:content_editor',
  'DELETE /admin-api/content/articles/:id': 'console:content_editor',
  'GET /admin-api/content/articles/:id/revisions': 'console:content_editor',
  'GET /admin-api/content/articles/:id/revisions/:version': 'console:content_editor',
  'POST /admin-api/content/articles/:id/revisions/:version/restore': 'console:content_editor',
  // Its translations (decision 063): who edits the item edits them.
  'GET /admin-api/content/articles/:id/translations': 'console:content_editor',
  'PUT /admin-api/content/articles/:id/translations/:langcode': 'console:content_editor',
  'DELETE /admin-api/content/articles/:id/translations/:langcode': 'console:content_editor',
  'GET /admin-api/content/categories': 'console:content_editor',
  'POST /admin-api/content/categories': 'console:content_editor',
  'POST /admin-api/content/categories/reorder': 'console:content_editor',
  'GET /admin-api/content/categories/:id': 'console:content_editor',
  'PATCH /admin-api/content/categories/:id': 'console:content_editor',
  'DELETE /admin-api/content/categories/:id': 'console:content_editor',
  // Its name's translations (decision 063): who edits the category edits them.
  'GET /admin-api/content/categories/:id/translations': 'console:content_editor',
  'PUT /admin-api/content/categories/:id/translations/:langcode': 'console:content_editor',
  'DELETE /admin-api/content/categories/:id/translations/:langcode': 'console:content_editor',
  'GET /admin-api/content/categories/:id/revisions': 'console:content_editor',
  'GET /admin-api/content/categories/:id/revisions/:version': 'console:content_editor',
  'POST /admin-api/content/categories/:id/revisions/:version/restore': 'console:content_editor',
  'GET /admin-api/site/:key': 'console:content_editor',
  'PUT /admin-api/site/:key': 'console:content_editor',
  'GET /admin-api/site/:key/revisions': 'console:content_editor',
  'GET /admin-api/site/:key/revisions/:version': 'console:content_editor',
  'POST /admin-api/site/:key/revisions/:version/restore': 'console:content_editor',
  'DELETE /admin-api/site/:key/draft': 'console:content_editor',
  // The documents' translations (decision 064): who edits the documents edits them.
  'GET /admin-api/site/:id/translations': 'console:content_editor',
  'PUT /admin-api/site/:id/translations/:langcode': 'console:content_editor',
  'DELETE /admin-api/site/:id/translations/:langcode': 'console:content_editor',
  'GET /admin-api/content/pages': 'console:content_editor',
  'POST /admin-api/content/pages': 'console:content_editor',
  'GET /admin-api/content/pages/:id': 'console:content_editor',
  'PATCH /admin-api/content/pages/:id': 'console:content_editor',
  'DELETE /admin-api/content/pages/:id': 'console:content_editor',
  'GET /admin-api/content/pages/:id/revisions': 'console:content_editor',
  'GET /admin-api/content/pages/:id/revisions/:version': 'console:content_editor',
  'POST /admin-api/content/pages/:id/revisions/:version/restore': 'console:content_editor',
  // Its translations (decision 063): who edits the item edits them.
  'GET /admin-api/content/pages/:id/translations': 'console:content_editor',
  'PUT /admin-api/content/pages/:id/translations/:langcode': 'console:content_editor',
  'DELETE /admin-api/content/pages/:id/translations/:langcode': 'console:content_editor',
  'GET /admin-api/content/quickstart': 'console:content_editor',
  'POST /admin-api/content/quickstart': 'console:content_editor',
  'GET /admin-api/content/quickstart/:id': 'console:content_editor',
  'PATCH /admin-api/content/quickstart/:id': 'console:content_editor',
  'DELETE /admin-api/content/quickstart/:id': 'console:content_editor',
  'GET /admin-api/content/quickstart/:id/revisions': 'console:content_editor',
  'GET /admin-api/content/quickstart/:id/revisions/:version': 'console:content_editor',
  'POST /admin-api/content/quickstart/:id/revisions/:version/restore': 'console:content_editor',
  // Its translations (decision 064): who edits the story edits them.
  'GET /admin-api/content/quickstart/:id/translations': 'console:content_editor',
  'PUT /admin-api/content/quickstart/:id/translations/:langcode': 'console:content_editor',
  'DELETE /admin-api/content/quickstart/:id/translations/:langcode': 'console:content_editor',
  'GET /admin-api/content/faqs': 'console:content_editor',
  'POST /admin-api/content/faqs': 'console:content_editor',
  'POST /admin-api/content/faqs/reorder': 'console:content_editor',
  'GET /admin-api/content/faqs/:id': 'console:content_editor',
  'PATCH /admin-api/content/faqs/:id': 'console:content_editor',
  'DELETE /admin-api/content/faqs/:id': 'console:content_editor',
  // Its translations (decision 063): who edits the item edits them.
  'GET /admin-api/content/faqs/:id/translations': 'console:content_editor',
  'PUT /admin-api/content/faqs/:id/translations/:langcode': 'console:content_editor',
  'DELETE /admin-api/content/faqs/:id/translations/:langcode': 'console:content_editor',
  'GET /admin-api/content/faqs/:id/revisions': 'console:content_editor',
  'GET /admin-api/content/faqs/:id/revisions/:version': 'console:content_editor',
  'POST /admin-api/content/faqs/:id/revisions/:version/restore': 'console:content_editor',
  'GET /admin-api/content/faq-categories': 'console:content_editor',
  'POST /admin-api/content/faq-categories': 'console:content_editor',
  'POST /admin-api/content/faq-categories/reorder': 'console:content_editor',
  'GET /admin-api/content/faq-categories/:id': 'console:content_editor',
  'PATCH /admin-api/content/faq-categories/:id': 'console:content_editor',
  'DELETE /admin-api/content/faq-categories/:id': 'console:content_editor',
  // Its name's translations (decision 063): who edits the category edits them.
  'GET /admin-api/content/faq-categories/:id/translations': 'console:content_editor',
  'PUT /admin-api/content/faq-categories/:id/translations/:langcode': 'console:content_editor',
  'DELETE /admin-api/content/faq-categories/:id/translations/:langcode': 'console:content_editor',
  'GET /admin-api/content/faq-categories/:id/revisions': 'console:content_editor',
  'GET /admin-api/content/faq-categories/:id/revisions/:version': 'console:content_editor',
  'POST /admin-api/content/faq-categories/:id/revisions/:version/restore': 'console:content_editor',
  'GET /admin-api/catalog/apis': 'console:api_manager',
  'POST /admin-api/catalog/apis/:alias/drafts': 'console:api_manager',
  'GET /admin-api/catalog/apis/:alias/drafts/:id': 'console:api_manager',
  'GET /admin-api/catalog/apis/:alias/drafts/:id/documentation/index': 'console:api_manager',
  'GET /admin-api/catalog/apis/:alias/drafts/:id/documentation/operations/:key': 'console:api_manager',
  'POST /admin-api/catalog/apis/:alias/drafts/:id/publish': 'console:api_manager',
  'DELETE /admin-api/catalog/apis/:alias/drafts/:id': 'console:api_manager',
  'GET /admin-api/catalog/apis/:alias/drafts/:id/audience': 'console:api_manager',
  'POST /admin-api/catalog/apis/:alias/drafts/:id/notices': 'console:api_manager',
  // A documentation's translations (decision 063): the API managers, who publish its versions.
  'GET /admin-api/catalog/documentations/:id/translations': 'console:api_manager',
  'PUT /admin-api/catalog/documentations/:id/translations/:langcode': 'console:api_manager',
  'DELETE /admin-api/catalog/documentations/:id/translations/:langcode': 'console:api_manager',
  'GET /admin-api/catalog/products': 'console:api_manager',
  'GET /admin-api/catalog/products/:id': 'console:api_manager',
  'PATCH /admin-api/catalog/products/:id': 'console:api_manager',
  'POST /admin-api/catalog/products/:id/move': 'console:api_manager',
  'POST /admin-api/catalog/products': 'console:api_manager',
  'DELETE /admin-api/catalog/products/:id': 'console:api_manager',
  'GET /admin-api/catalog/products/:id/revisions': 'console:api_manager',
  'GET /admin-api/catalog/products/:id/revisions/:version': 'console:api_manager',
  'POST /admin-api/catalog/products/:id/revisions/:version/restore': 'console:api_manager',
  // Its translations (decision 063): who edits the item edits them.
  'GET /admin-api/catalog/products/:id/translations': 'console:api_manager',
  'PUT /admin-api/catalog/products/:id/translations/:langcode': 'console:api_manager',
  'DELETE /admin-api/catalog/products/:id/translations/:langcode': 'console:api_manager',
  'GET /admin-api/catalog/products/:productId/changelog': 'console:api_manager',
  'POST /admin-api/catalog/products/:productId/changelog': 'console:api_manager',
  'GET /admin-api/catalog/products/:productId/changelog/:id': 'console:api_manager',
  'PATCH /admin-api/catalog/products/:productId/changelog/:id': 'console:api_manager',
  'DELETE /admin-api/catalog/products/:productId/changelog/:id': 'console:api_manager',
  'GET /admin-api/catalog/products/:productId/changelog/:id/revisions': 'console:api_manager',
  'GET /admin-api/catalog/products/:productId/changelog/:id/revisions/:version': 'console:api_manager',
  'POST /admin-api/catalog/products/:productId/changelog/:id/revisions/:version/restore':
    'console:api_manager',
  'GET /admin-api/catalog/products/:id/plans': 'console:api_manager',
  'PUT /admin-api/catalog/products/:id/plans': 'console:api_manager',
  'GET /admin-api/catalog/comparison-tables': 'console:api_manager',
  'POST /admin-api/catalog/comparison-tables': 'console:api_manager',
  'GET /admin-api/catalog/comparison-tables/:id': 'console:api_manager',
  'GET /admin-api/catalog/comparison-tables/:id/revisions': 'console:api_manager',
  'GET /admin-api/catalog/comparison-tables/:id/revisions/:version': 'console:api_manager',
  'POST /admin-api/catalog/comparison-tables/:id/revisions/:version/restore': 'console:api_manager',
  'PATCH /admin-api/catalog/comparison-tables/:id': 'console:api_manager',
  'DELETE /admin-api/catalog/comparison-tables/:id': 'console:api_manager',
  'GET /admin-api/catalog/comparison-tables/:id/translations': 'console:api_manager',
  'PUT /admin-api/catalog/comparison-tables/:id/translations/:langcode': 'console:api_manager',
  'DELETE /admin-api/catalog/comparison-tables/:id/translations/:langcode': 'console:api_manager',
  'GET /admin-api/catalog/categories': 'console:api_manager',
  'GET /admin-api/support/tickets': 'console:support_agent',
  'GET /admin-api/support/contact-messages': 'console:support_agent',
  // Support staff: administrators only (support staff who are not administrators get 403 too).
  'GET /admin-api/support/staff': 'admin',
  'POST /admin-api/support/staff': 'admin',
  'DELETE /admin-api/support/staff/:uuid': 'admin',
  // Console users and roles (issue 27, modules/console-users): administrators only.
  'GET /admin-api/users': 'admin',
  'GET /admin-api/users/:uuid': 'admin',
  'POST /admin-api/users/:uuid/block': 'admin',
  'POST /admin-api/users/:uuid/unblock': 'admin',
  'PUT /admin-api/users/:uuid/roles': 'admin',
  // Forums (issue 14, modules/forum): anyone reads, signed-in users post and subscribe, moderators
  // (provider administrators) hide, lock, pin and delete; the unsubscribe link carries a signed token.
  'GET /jsonapi/taxonomy_term/forums': 'public',
  'GET /phpsdk/forum-topics/:forumId': 'public',
  'GET /jsonapi/node/forum': 'public',
  'GET /jsonapi/node/forum/:id': 'public',
  'POST /jsonapi/node/forum': 'user',
  'PATCH /jsonapi/node/forum/:id': 'admin',
  'DELETE /jsonapi/node/forum/:id': 'admin',
  'GET /jsonapi/comment/comment_forum': 'public',
  'POST /jsonapi/comment/comment_forum': 'user',
  'PATCH /jsonapi/comment/comment_forum/:id': 'admin',
  'DELETE /jsonapi/comment/comment_forum/:id': 'admin',
  'GET /api/subscribe-list': 'user',
  'POST /api/subscribe-list': 'user',
  'GET /api/subscribe-list/unsubscribe': 'public',
  // Public content (issue 13: blog, FAQ, content images, cloud document settings).
  'GET /jsonapi/node/article': 'public',
  'GET /jsonapi/node/article/:id': 'public',
  'GET /jsonapi/taxonomy_term/news_categories': 'public',
  'GET /jsonapi/taxonomy_term/faq_categories': 'public',
  'GET /jsonapi/node/faq': 'public',
  'GET /blog-images/:name': 'public',
  'GET /phpsdk/cloud-documents/config': 'public',
  // Quick Start tour (issue 15): the stories, with disabled/completed computed for the caller.
  'GET /getting_started/stories': 'public',
  // Audit log (issue 27): every provider role reads it; an organization's owners their part.
  'GET /admin-api/audit': 'console:api_manager+content_editor+support_agent+go_live_reviewer',
  'GET /admin-api/audit.csv': 'console:api_manager+content_editor+support_agent+go_live_reviewer',
  'GET /jsonapi/group/organization/:uuid/audit': 'user',
  // Images uploaded in the console (issue 27, modules/console-images): the roles that edit content
  // upload and list them; everyone sees an uploaded image.
  'POST /admin-api/images': 'console:content_editor+api_manager',
  'GET /admin-api/images': 'console:content_editor+api_manager',
  'DELETE /admin-api/images/:id': 'console:content_editor+api_manager',
  'GET /images/console/:name': 'public',
};

/**
 * The tools of /mcp and who may call them: 'public' ones answer anyone; 'user' ones act for the
 * user of the access token, with the web app's checks of the route each calls (mcp.test.ts), and
 * without a token get 401 with the protected resource metadata.
 */
const MCP_TOOLS: Record<string, 'public' | 'user'> = {
  search_portal: 'public',
  list_api_products: 'public',
  get_api_product: 'public',
  get_api_documentation: 'public',
  get_api_operation: 'public',
  get_changelog: 'public',
  get_faq: 'public',
  list_articles: 'public',
  get_article: 'public',
  list_my_organizations: 'user',
  list_my_applications: 'user',
  create_development_application: 'user',
  subscribe_application: 'user',
  get_sandbox_token: 'user',
  call_sandbox_operation: 'user',
  open_support_ticket: 'user',
};

/** Served from the built web app, which the server tests may run without (they answer 503). */
const WEB_APP_ROUTES = new Set(['GET /', 'GET /*']);

/** Routes mounted by the OAuth servers and the sandbox, which check their own credentials. */
const PROTOCOL_PREFIXES = ['/idp', '/oauth', '/sandbox/'];

let t: TestApp;
const routes = new Set<string>();

function remember(route: RouteOptions) {
  const methods = Array.isArray(route.method) ? route.method : [route.method];
  for (const method of methods) {
    // HEAD mirrors GET; the other methods of a protocol mount are the protocol's.
    if (method === 'HEAD') continue;
    routes.add(`${method} ${route.url}`);
  }
}

/** A file of the built web app (its static plugin registers one route per file when built). */
function webAppFile(route: string): boolean {
  const [method, url] = route.split(' ') as [string, string];
  if (method !== 'GET' || url.includes(':') || url.endsWith('*')) return false;
  const file = path.join(t.config.webDist, decodeURIComponent(url));
  return file.startsWith(t.config.webDist + path.sep) && fs.existsSync(file) && fs.statSync(file).isFile();
}

function accessOf(route: string): Access | undefined {
  if (!(route in POLICY) && webAppFile(route)) return 'public';
  const url = route.slice(route.indexOf(' ') + 1);
  if (PROTOCOL_PREFIXES.some((p) => url === p || url.startsWith(p.endsWith('/') ? p : `${p}/`))) {
    if (!(route in POLICY)) return 'protocol';
  }
  return POLICY[route];
}

/** A concrete URL for a route pattern: a fresh id for every parameter, so nothing real matches. */
function concrete(url: string): string {
  return url.replace(/:[A-Za-z_]+/g, () => randomUUID()).replace(/\*$/, 'no-such-page');
}

async function call(client: TestClient, route: string): Promise<Response> {
  const [method, url] = route.split(' ') as [string, string];
  if (method === 'GET') return client.get(concrete(url));
  // Anonymous callers carry a valid anonymous CSRF token, so that what answers is the access
  // rule, not the CSRF check.
  return client.send(method, concrete(url), {});
}

beforeAll(async () => {
  t = await startTestApp({ LOGIN_RATE_LIMIT: '1000', IMPORT_CONTENT: 'false' }, undefined, remember);
});
afterAll(async () => {
  await t?.close();
});

describe('route access', () => {
  it('every route the portal serves has an access level, and every listed route exists', () => {
    const unlisted = [...routes].filter((r) => accessOf(r) === undefined).sort();
    const stale = Object.keys(POLICY)
      .filter((r) => !routes.has(r))
      .sort();
    expect({ unlisted, stale }).toEqual({ unlisted: [], stale: [] });
  });

  it("every tool of /mcp has an access level, and an anonymous assistant gets 401 for a user's", async () => {
    const assistant = await connectAssistant(t);
    const { tools } = await assistant.client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(Object.keys(MCP_TOOLS).sort());
    const answers: string[] = [];
    for (const [name, access] of Object.entries(MCP_TOOLS).sort()) {
      const res = await fetch(mcpUrl(t), {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: { name, arguments: {} },
        }),
      });
      await res.arrayBuffer();
      const ok =
        access === 'user'
          ? res.status === 401 && /resource_metadata=/.test(res.headers.get('www-authenticate') ?? '')
          : res.status === 200;
      if (!ok) answers.push(`${name}: ${res.status} (${access})`);
    }
    await assistant.close();
    expect(answers).toEqual([]);
  });

  it('anonymous callers get no data and no 5xx from any route that needs a user', async () => {
    const answers: string[] = [];
    for (const route of [...routes].sort()) {
      const access = accessOf(route);
      if (access === 'protocol') continue;
      const res = await call(new TestClient(t.baseUrl), route);
      await res.arrayBuffer();
      const ok =
        access === 'public'
          ? res.status < 500 || (res.status === 503 && WEB_APP_ROUTES.has(route) && !webAppBuilt(t.config))
          : [401, 403, 404].includes(res.status);
      if (!ok) answers.push(`${route}: ${res.status} (${access})`);
    }
    expect(answers).toEqual([]);
  });

  it('a signed-in developer is refused every provider route', async () => {
    const developer = await signedInUser(t, 'route.developer@example.com');
    const answers: string[] = [];
    for (const route of [...routes].sort()) {
      if (!providerRolesOf(accessOf(route))) continue;
      const res = await call(developer, route);
      await res.arrayBuffer();
      if (res.status !== 403 && res.status !== 404) answers.push(`${route}: ${res.status}`);
    }
    expect(answers).toEqual([]);
  });

  it('each provider role is refused every console route of the other roles, and nothing changes', async () => {
    const snapshot = async () => {
      const versions = await t.app.db.selectFrom('data_versions').select(['domain', 'version']).execute();
      const audit = await t.app.db
        .selectFrom('audit_log')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .executeTakeFirstOrThrow();
      return {
        versions: Object.fromEntries(versions.map((v) => [v.domain, String(v.version)])),
        audit: audit.n,
      };
    };
    const answers: string[] = [];
    for (const role of ASSIGNABLE_ROLES) {
      const member = await signedInUser(t, `route.role.${role.replace(/_/g, '-')}@example.com`, {
        roles: [role],
      });
      const before = await snapshot();
      for (const route of [...routes].sort()) {
        const admitted = providerRolesOf(accessOf(route));
        if (!admitted || admitted.includes(role)) continue;
        const res = await call(member, route);
        await res.arrayBuffer();
        if (res.status !== 403 && res.status !== 404) answers.push(`${role} ${route}: ${res.status}`);
      }
      expect(await snapshot()).toEqual(before);
    }
    expect(answers).toEqual([]);
  });

  it('a signed-in user never gets a 5xx for ids that do not exist', async () => {
    const developer = await signedInUser(t, 'route.ids@example.com');
    const admin = await signedInUser(t, 'route.admin@example.com', { admin: true });
    const answers: string[] = [];
    for (const route of [...routes].sort()) {
      const access = accessOf(route);
      if (access === 'protocol' || access === 'public') continue;
      const res = await call(providerRolesOf(access) ? admin : developer, route);
      await res.arrayBuffer();
      if (res.status >= 500) answers.push(`${route}: ${res.status}`);
    }
    expect(answers).toEqual([]);
  });

  it('state-changing calls of a signed-in user without the CSRF token are refused', async () => {
    const developer = await signedInUser(t, 'route.csrf@example.com');
    const answers: string[] = [];
    for (const route of [...routes].sort()) {
      const [method, url] = route.split(' ') as [string, string];
      if (method === 'GET' || accessOf(route) === 'protocol') continue;
      const res = await developer.request(concrete(url), {
        method,
        headers: { 'content-type': 'application/vnd.api+json' },
        body: '{}',
      });
      await res.arrayBuffer();
      if (res.status !== 403) answers.push(`${route}: ${res.status}`);
    }
    expect(answers).toEqual([]);
  });

  it('no public answer carries the e-mail address of a user', async () => {
    const owner = await signedInUser(t, 'route.private.owner@example.com');
    await createOrg(owner, 'Route Privacy Org');
    const leaks: string[] = [];
    for (const route of [...routes].sort()) {
      const [method, url] = route.split(' ') as [string, string];
      if (method !== 'GET' || accessOf(route) !== 'public' || url.includes(':')) continue;
      const text = await (await new TestClient(t.baseUrl).get(url.replace(/\*$/, 'no-such-page'))).text();
      if (text.includes('route.private.owner@example.com')) leaks.push(route);
    }
    expect(leaks).toEqual([]);
  });
});
