import { format } from '@portico/contracts/format';
import { en } from '@portico/contracts/messages';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { hitRateLimit, HOUR_MS } from '../../lib/rate-limit.ts';
import { AGENT_SCOPE, agentResource, type AgentGrant } from '../identity/service.ts';
import { ACCOUNT_TOOLS, registerAccountTools, type AgentContext } from './account-tools.ts';
import { registerPublicTools } from './public-tools.ts';

export const MCP_PATH = '/mcp';
/** RFC 9728 3.1: the metadata of the resource `<origin>/mcp` is at this path (and at the root's). */
export const RESOURCE_METADATA_PATH = '/.well-known/oauth-protected-resource';

const SERVER_INFO = { name: 'portico', version: '1.0.0' } as const;
const INSTRUCTIONS =
  "The developer portal's MCP server. Anyone may search the portal and read its API products, API documentation (operations with parameters, schemas and samples), changelog, FAQ and articles. The tools that act for a user (their organizations and applications, subscriptions, sandbox tokens and calls, support tickets) need the user's authorization: the server answers 401 with the resource metadata, and the user signs in and consents at the portal.";

/**
 * The MCP SDK (about 7 MB of the main thread's heap), loaded with the first call of /mcp rather
 * than at every start: most portals' processes never answer one.
 */
async function loadSdk() {
  const [{ McpServer }, { StreamableHTTPServerTransport }] = await Promise.all([
    import('@modelcontextprotocol/sdk/server/mcp.js'),
    import('@modelcontextprotocol/sdk/server/streamableHttp.js'),
  ]);
  return { McpServer, StreamableHTTPServerTransport };
}
let sdk: ReturnType<typeof loadSdk> | undefined;
const mcpSdk = () => (sdk ??= loadSdk());

interface JsonRpcMessage {
  jsonrpc?: unknown;
  id?: unknown;
  method?: unknown;
  params?: { name?: unknown };
}

function messagesOf(body: unknown): JsonRpcMessage[] {
  const list = Array.isArray(body) ? (body as unknown[]) : [body];
  return list.filter((m): m is JsonRpcMessage => typeof m === 'object' && m !== null);
}

/**
 * The Model Context Protocol at /mcp (issue 30, decision 056): Streamable HTTP, stateless (a new
 * server and transport per request, no session id, JSON answers), so that any instance answers any
 * request. Anonymous assistants read what every visitor reads (public-tools.ts); an assistant with
 * an access token of the identity provider for this resource acts for its user (account-tools.ts).
 */
export default fp(
  async (app: FastifyInstance) => {
    const resource = agentResource(app);
    const metadataUrl = `${app.config.publicUrl}${RESOURCE_METADATA_PATH}${MCP_PATH}`;
    const ownOrigin = new URL(app.config.publicUrl).origin;

    // RFC 9728: which authorization server issues tokens for /mcp, and the scope to ask for.
    const resourceMetadata = async (_request: FastifyRequest, reply: FastifyReply) => {
      const authz = app.agentAuthorization;
      reply.header('Access-Control-Allow-Origin', '*').header('Cache-Control', 'public, max-age=3600');
      if (!authz) return reply.status(404).send({ error: 'not_found' });
      return reply.type('application/json').send({
        resource,
        authorization_servers: [authz.issuer],
        scopes_supported: [AGENT_SCOPE],
        bearer_methods_supported: ['header'],
        resource_name: en.site.title,
        resource_documentation: `${app.config.publicUrl}/llms.txt`,
      });
    };
    app.get(RESOURCE_METADATA_PATH, resourceMetadata);
    app.get(`${RESOURCE_METADATA_PATH}${MCP_PATH}`, resourceMetadata);

    /** A JSON-RPC error answer outside the transport (before it, for the whole HTTP request). */
    const fail = (reply: FastifyReply, status: number, message: string, code = -32000) =>
      reply
        .status(status)
        .header('Cache-Control', 'no-store')
        .type('application/json')
        .send({ jsonrpc: '2.0', error: { code, message }, id: null });

    /** RFC 6750 3 and the MCP authorization: where to find how to get a token, and for what. */
    const challenge = (reply: FastifyReply, status: 401 | 403, error?: string, description?: string) => {
      const params = [
        ...(error ? [`error="${error}"`] : []),
        ...(description ? [`error_description="${description}"`] : []),
        `resource_metadata="${metadataUrl}"`,
        `scope="${AGENT_SCOPE}"`,
      ];
      reply.header('WWW-Authenticate', `Bearer ${params.join(', ')}`);
      return fail(reply, status, description ?? en.mcp.signInRequired);
    };

    const handle = async (request: FastifyRequest, reply: FastifyReply) => {
      // DNS rebinding (MCP transports, security warning): a browser page of another origin is refused.
      const origin = request.headers.origin;
      if (origin !== undefined && origin !== ownOrigin) return fail(reply, 403, 'Origin not allowed.');
      const calls = messagesOf(request.body).filter((m) => m.method === 'tools/call');
      const wantsUser = calls.some(
        (m) =>
          typeof m.params?.name === 'string' && (ACCOUNT_TOOLS as readonly string[]).includes(m.params.name),
      );

      let agent: AgentContext | undefined;
      let grant: AgentGrant | undefined;
      const authorization = request.headers.authorization;
      if (authorization !== undefined) {
        const token = /^Bearer +([A-Za-z0-9\-._~+/]+=*)$/i.exec(authorization)?.[1];
        grant = token && app.agentAuthorization ? await app.agentAuthorization.verify(token) : undefined;
        if (!grant)
          return challenge(reply, 401, 'invalid_token', 'The access token is not valid for this resource.');
        if (!grant.scopes.includes(AGENT_SCOPE))
          return challenge(
            reply,
            403,
            'insufficient_scope',
            `The access token lacks the ${AGENT_SCOPE} scope.`,
          );
        const user = await app.agentUser(grant.userUuid);
        if (!user)
          return challenge(reply, 401, 'invalid_token', 'The user of this access token cannot sign in.');
        agent = { user, ip: request.ip };
      } else if (wantsUser) {
        return challenge(reply, 401);
      }

      // Every tool call counts, per user or per address (MCP_RATE_LIMIT an hour).
      for (const _call of calls) {
        const key = agent ? `mcp:user:${agent.user.id}` : `mcp:ip:${request.ip}`;
        const hit = await hitRateLimit(app.db, key, app.config.mcpRateLimit, HOUR_MS);
        if (!hit.allowed) {
          reply.header('Retry-After', String(hit.retryAfterSeconds));
          return fail(reply, 429, format(en.mcp.tooManyCalls, { seconds: hit.retryAfterSeconds }));
        }
      }
      for (const call of calls)
        request.log.info(
          { tool: call.params?.name, userId: agent?.user.id ?? null, clientId: grant?.clientId ?? null },
          'mcp tool call',
        );

      const { McpServer, StreamableHTTPServerTransport } = await mcpSdk();
      const server = new McpServer(SERVER_INFO, { instructions: INSTRUCTIONS });
      registerPublicTools(server, app);
      registerAccountTools(server, app, agent);
      const transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: undefined,
        enableJsonResponse: true,
      });
      reply.hijack();
      // Headers our hooks set (security headers, Request-Id) are on the Fastify reply: a hijacked
      // response bypasses it, so they are copied onto the raw response first (as oidc/mount.ts).
      for (const [name, value] of Object.entries(reply.getHeaders())) {
        if (value !== undefined) reply.raw.setHeader(name, value);
      }
      reply.raw.setHeader('Cache-Control', 'no-store');
      reply.raw.on('close', () => {
        void transport.close();
        void server.close();
      });
      try {
        await server.connect(transport);
        await transport.handleRequest(request.raw, reply.raw, request.body);
      } catch (err) {
        request.log.error({ err }, 'mcp request failed');
        if (!reply.raw.headersSent) {
          reply.raw.writeHead(500, { 'content-type': 'application/json' });
          reply.raw.end(
            JSON.stringify({ jsonrpc: '2.0', error: { code: -32603, message: 'Internal error' }, id: null }),
          );
        }
      }
    };

    app.post(MCP_PATH, handle);
    // Stateless: no stream of server-initiated messages to open, and no session to end.
    const notAllowed = async (_request: FastifyRequest, reply: FastifyReply) =>
      fail(reply.header('Allow', 'POST'), 405, 'Method not allowed: this server is stateless, POST only.');
    app.get(MCP_PATH, notAllowed);
    app.delete(MCP_PATH, notAllowed);
  },
  { name: 'mcp', dependencies: ['db', 'session', 'identity', 'markdown'] },
);
