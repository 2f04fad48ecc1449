import type { Application } from '@portico/contracts/applications';
import { TICKET_ENVIRONMENTS, TICKET_SEVERITIES } from '@portico/contracts/support';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { en } from '@portico/contracts/messages';
import { z } from 'zod';
import type { AgentCallOptions, SessionUser } from '../../plugins/session.ts';
import { findProduct } from '../catalog/service.ts';
import { data, refusal, type ToolAnswer } from './answers.ts';

/** The tools that act for the signed-in user: their names, refused without a token (plugin.ts). */
export const ACCOUNT_TOOLS = [
  'list_my_organizations',
  'list_my_applications',
  'create_development_application',
  'subscribe_application',
  'get_sandbox_token',
  'call_sandbox_operation',
  'open_support_ticket',
] as const;

/** What a sandbox answer may hand back to the assistant, in characters. */
const SANDBOX_BODY_MAX = 20_000;
/**
 * Headers an assistant may not set on a sandbox call: the caller and the transport are ours, and
 * the tool hands back text, so the answer is never asked for compressed.
 */
const RESERVED_HEADERS =
  /^(host|cookie|authorization|content-length|connection|transfer-encoding|accept-encoding|x-portico-.*|x-csrf-token|x-forwarded-.*)$/i;

/** Who the tools act for, and from where (the assistant's address). */
export interface AgentContext {
  user: SessionUser;
  ip: string;
}

/** Stands for the user in the closures of an anonymous server: never used to act (see `call`). */
const ANONYMOUS: SessionUser = Object.freeze({
  id: 0,
  uuid: '',
  email: '',
  name: '',
  firstName: null,
  preferredLangcode: null,
  lastName: null,
  isAdmin: false,
  providerRoles: [],
  emailVerified: false,
});

const ref = (what: string) => z.string().trim().min(1).max(200).describe(what);

/**
 * The signed-in tools: each calls the web app's own route in-process as the user (app.injectAs,
 * plugins/session.ts), so that the route's authorization checks (organizations/authz.ts,
 * applications/access.ts), validation, rate limits and audit entries are exactly the web app's
 * (decision 056). A refusal comes back as a tool error with the route's status and message.
 */
export function registerAccountTools(
  server: McpServer,
  app: FastifyInstance,
  caller: AgentContext | undefined,
): void {
  // Listed to every assistant, so that it knows to sign in; a call without a user never gets here
  // (plugin.ts answers it with the 401 that starts the authorization), but should one, it is refused.
  const agent: AgentContext = caller ?? { user: ANONYMOUS, ip: '' };
  const call = async (options: Omit<AgentCallOptions, 'remoteAddress'>): Promise<LightMyRequestResponse> => {
    if (!caller) throw new Error(en.mcp.signInRequired);
    return app.injectAs(caller.user, { ...options, remoteAddress: caller.ip });
  };
  const ok = (res: LightMyRequestResponse) => res.statusCode >= 200 && res.statusCode < 300;

  /** What an assistant needs of an application (never its secrets). */
  const summary = (a: Application) => ({
    uuid: a.uuid,
    title: a.title,
    organization: { uuid: a.organization.uuid, title: a.organization.title },
    status: a.applicationStatus,
    goLive: a.goLive.status,
    grantTypes: a.allowedGrantTypes,
    redirectUris: a.oauthRedirectUri,
    clientId: a.clientId.development,
    subscriptions: a.subscriptions.map((s) => ({
      product: s.alias.replace(/^\//, ''),
      title: s.title,
      scope: s.scope,
    })),
    permissions: a.permissions,
  });

  async function application(id: string): Promise<{ app: Application } | { refused: ToolAnswer }> {
    const res = await call({ method: 'GET', url: `/jsonapi/node/application/${encodeURIComponent(id)}` });
    if (!ok(res)) return { refused: refusal(res.statusCode, res.body) };
    return { app: (res.json() as { data: { meta: { application: Application } } }).data.meta.application };
  }

  server.registerTool(
    'list_my_organizations',
    {
      title: 'List my organizations',
      description:
        'The organizations the signed-in user belongs to, with their roles and permissions in each.',
      inputSchema: {},
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async () => {
      const res = await call({ method: 'GET', url: '/jsonapi/group/organization?page[limit]=50' });
      if (!ok(res)) return refusal(res.statusCode, res.body);
      const doc = res.json() as {
        data: {
          id: string;
          attributes: { label: string };
          meta: { membership: { status: string; roles: string[] }; permissions: string[] };
        }[];
      };
      return data({
        organizations: doc.data.map((o) => ({
          uuid: o.id,
          title: o.attributes.label,
          membership: o.meta.membership.status,
          roles: o.meta.membership.roles,
          permissions: o.meta.permissions,
        })),
      });
    },
  );

  server.registerTool(
    'list_my_applications',
    {
      title: 'List my applications',
      description:
        "The applications of the user's organizations (of one organization when given), with their client id, status and subscriptions.",
      inputSchema: { organization: ref("An organization's uuid").optional() },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async ({ organization }) => {
      const query = organization ? `&organization=${encodeURIComponent(organization)}` : '';
      const res = await call({ method: 'GET', url: `/phpsdk/organization/apps?page[limit]=50${query}` });
      if (!ok(res)) return refusal(res.statusCode, res.body);
      const list = res.json() as { data: Application[]; meta: { count: number } };
      return data({ count: list.meta.count, applications: list.data.map(summary) });
    },
  );

  server.registerTool(
    'create_development_application',
    {
      title: 'Create a development application',
      description:
        "Creates an application in one of the user's organizations (it starts in development, with sandbox credentials). The client_credentials grant unless told; redirect URIs are needed for authorization_code.",
      inputSchema: {
        organization: ref("The organization's uuid (from list_my_organizations)"),
        title: z.string().trim().min(1).max(255).describe("The application's name"),
        description: z.string().max(5000).optional(),
        grantTypes: z
          .array(z.enum(['authorization_code', 'client_credentials', 'refresh_token']))
          .min(1)
          .max(3)
          .optional(),
        redirectUris: z.array(z.string().max(2000)).max(10).optional(),
      },
      annotations: {
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: false,
        openWorldHint: false,
      },
    },
    async ({ organization, title, description, grantTypes, redirectUris }) => {
      const res = await call({
        method: 'POST',
        url: '/api/application',
        payload: {
          organization,
          title,
          description: description ?? '',
          allowedGrantTypes: grantTypes ?? ['client_credentials'],
          oAuthRedirectUri: redirectUris ?? [],
          postLogoutRedirectUri: [],
        },
      });
      if (!ok(res)) return refusal(res.statusCode, res.body);
      return data({ application: summary((res.json() as { data: Application }).data) });
    },
  );

  server.registerTool(
    'subscribe_application',
    {
      title: 'Subscribe an application to an API product',
      description:
        "Subscribes a development application to an API product, so that its sandbox tokens carry the product's scopes.",
      inputSchema: {
        application: ref("The application's uuid"),
        product: ref("The product's alias or uuid (from list_api_products)"),
      },
      annotations: {
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: true,
        openWorldHint: false,
      },
    },
    async ({ application: id, product }) => {
      // An alias names a product every visitor sees; the route checks the rest (subscribable…).
      const found = await findProduct(app.db, product);
      const res = await call({
        method: 'POST',
        url: '/api/application',
        payload: {
          type: 'subscribe',
          application: id,
          product: found && !found.retired ? found.uuid : product,
        },
      });
      if (!ok(res)) return refusal(res.statusCode, res.body);
      return data({ application: summary((res.json() as { data: Application }).data) });
    },
  );

  server.registerTool(
    'get_sandbox_token',
    {
      title: 'Get a sandbox access token',
      description:
        "An access token for the sandbox from the application's development credentials (client_credentials grant), with the scopes of its subscriptions (or those asked for).",
      inputSchema: {
        application: ref("The application's uuid"),
        scope: z
          .string()
          .trim()
          .max(1000)
          .optional()
          .describe('Space-separated scopes; all subscribed unless told'),
      },
      annotations: {
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: false,
        openWorldHint: false,
      },
    },
    async ({ application: id, scope }) => {
      const found = await application(id);
      if ('refused' in found) return found.refused;
      const { clientId, clientSecret } = {
        clientId: found.app.clientId.development,
        clientSecret: found.app.clientSecret,
      };
      // The secret is shown to the roles that may see it in the web app (viewSecret), no one else.
      if (!clientId || !clientSecret)
        return refusal(
          403,
          JSON.stringify({ errors: [{ title: 'This application has no development secret you may use.' }] }),
        );
      const form = new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: clientId,
        client_secret: clientSecret,
        ...(scope ? { scope } : {}),
      });
      const res = await call({
        method: 'POST',
        url: '/oauth/token',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: form.toString(),
      });
      if (!ok(res)) return refusal(res.statusCode, res.body);
      const token = res.json() as {
        access_token: string;
        token_type: string;
        expires_in: number;
        scope?: string;
      };
      return data({
        accessToken: token.access_token,
        tokenType: token.token_type,
        expiresIn: token.expires_in,
        scope: token.scope ?? '',
        sandbox: `${app.config.publicUrl}/sandbox`,
      });
    },
  );

  server.registerTool(
    'call_sandbox_operation',
    {
      title: 'Call a sandbox operation',
      description:
        "Calls an operation of the sandbox (the paths under /sandbox/<api>/ that get_api_documentation lists as servers) with an access token from get_sandbox_token, and returns the sandbox's answer.",
      inputSchema: {
        method: z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']),
        path: z
          .string()
          .trim()
          .min(1)
          .max(2000)
          .describe(
            'The path under the sandbox, e.g. /sandbox/accounts-v1/accounts (a query string may follow)',
          ),
        accessToken: z.string().min(1).max(8000).describe('The token from get_sandbox_token'),
        headers: z.record(z.string().max(100), z.string().max(4000)).optional(),
        body: z.string().max(100_000).optional().describe('The request body (JSON as text)'),
      },
      annotations: {
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: false,
        openWorldHint: false,
      },
    },
    async ({ method, path, accessToken, headers, body }) => {
      const relative = path.startsWith('/sandbox/') ? path : `/sandbox/${path.replace(/^\/+/, '')}`;
      let url: URL;
      try {
        url = new URL(relative, 'http://sandbox.invalid');
      } catch {
        return refusal(400, JSON.stringify({ errors: [{ title: 'The path is not a sandbox address.' }] }));
      }
      // Only the sandbox: a path that leaves it (dot segments, another host) is refused.
      if (url.host !== 'sandbox.invalid' || !url.pathname.startsWith('/sandbox/'))
        return refusal(400, JSON.stringify({ errors: [{ title: 'The path is not a sandbox address.' }] }));
      const extra = Object.fromEntries(
        Object.entries(headers ?? {}).filter(([name]) => !RESERVED_HEADERS.test(name)),
      );
      if (!caller) throw new Error(en.mcp.signInRequired);
      // The sandbox's own instance (decision 075), as a call from outside reaches it.
      const res = await app.sandboxApp.inject({
        method,
        url: `${url.pathname}${url.search}`,
        remoteAddress: agent.ip,
        headers: {
          ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
          ...extra,
          authorization: `Bearer ${accessToken}`,
        },
        ...(body !== undefined ? { payload: body } : {}),
      });
      const contentType = String(res.headers['content-type'] ?? '');
      let answer: unknown = res.body;
      if (/json/.test(contentType)) {
        try {
          answer = res.json();
        } catch {
          answer = res.body;
        }
      }
      const cut = typeof answer === 'string' && answer.length > SANDBOX_BODY_MAX;
      return data({
        status: res.statusCode,
        contentType,
        ...(res.headers['www-authenticate']
          ? { wwwAuthenticate: String(res.headers['www-authenticate']) }
          : {}),
        body: cut ? `${(answer as string).slice(0, SANDBOX_BODY_MAX)}…` : answer,
      });
    },
  );

  server.registerTool(
    'open_support_ticket',
    {
      title: 'Open a support ticket',
      description: "Opens a support ticket in the user's name, as the portal's support form does.",
      inputSchema: {
        title: z.string().trim().min(1).max(255),
        description: z.string().trim().min(1).max(20_000).describe('What happened'),
        details: z.string().trim().min(1).max(20_000).describe('Steps, requests and answers, ids'),
        environment: z.enum(TICKET_ENVIRONMENTS),
        severity: z.enum(TICKET_SEVERITIES),
        contactInfo: z
          .string()
          .trim()
          .max(500)
          .optional()
          .describe('How to reach the user (their e-mail unless told)'),
      },
      annotations: {
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: false,
        openWorldHint: false,
      },
    },
    async ({ title, description, details, environment, severity, contactInfo }) => {
      const res = await call({
        method: 'POST',
        url: '/api/support_ticket/create',
        payload: {
          title,
          description,
          details,
          message: details,
          environment,
          severity,
          contact_info: contactInfo || agent.user.email,
        },
      });
      if (!ok(res)) return refusal(res.statusCode, res.body);
      const created = res.json() as { nid: { value: number }[]; uuid: { value: string }[] };
      return data({
        ticket: { id: created.nid[0]?.value, uuid: created.uuid[0]?.value, title, status: 'OPEN' },
      });
    },
  );
}
