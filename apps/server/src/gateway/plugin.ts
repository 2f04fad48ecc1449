import fp from 'fastify-plugin';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { CompiledApi, MatchedOperation } from './compiled-api.ts';
import { createDocumentCache } from './documents.ts';
import { mockResponse, serializeBody } from './mock.ts';
import { createCallRecorder, type CallRecorder } from './recorder.ts';
import { createTokenVerifier, TokenError, type VerifiedToken } from './tokens.ts';

export const SANDBOX_PREFIX = '/sandbox';

/** Who called, for the call record (set once the token is known). */
interface CallContext {
  alias: string;
  endpoint: string;
  method: string;
  clientId: string;
  applicationUuid: string | null;
  environment: string;
}

interface OAuthErrorBody {
  error: string;
  error_description: string;
  [extra: string]: unknown;
}

const quote = (v: string) => v.replace(/["\\]/g, '');

function sendError(reply: FastifyReply, status: number, body: OAuthErrorBody): FastifyReply {
  if (status === 401 || (status === 403 && body.error === 'insufficient_scope')) {
    const parts = [
      `realm="sandbox"`,
      `error="${body.error}"`,
      `error_description="${quote(body.error_description)}"`,
    ];
    if (typeof body.scope === 'string') parts.push(`scope="${quote(body.scope)}"`);
    reply.header('WWW-Authenticate', `Bearer ${parts.join(', ')}`);
  }
  return reply.status(status).header('Cache-Control', 'no-store').type('application/json').send(body);
}

function bearer(request: FastifyRequest): string | undefined | null {
  const header = request.headers.authorization;
  if (!header) return undefined;
  const m = /^Bearer\s+([A-Za-z0-9\-._~+/]+=*)\s*$/i.exec(header);
  return m ? m[1]! : null;
}

/** Scopes an operation needs: one set per alternative security requirement; [] means none. */
function requiredScopes(api: CompiledApi, match: MatchedOperation): string[][] | undefined {
  if (!match.security.length) return undefined;
  if (match.security.some((r) => Object.keys(r).length === 0)) return undefined;
  return match.security.map((requirement) =>
    Object.entries(requirement).flatMap(([name, scopes]) => {
      const type = api.scheme(name)?.type;
      // Only OAuth 2 and OpenID Connect requirements list scopes; other schemes need a token alone.
      return type === 'oauth2' || type === 'openIdConnect' || type === undefined ? (scopes ?? []) : [];
    }),
  );
}

/**
 * The sandbox gateway: every imported API answers under /sandbox/<alias>/... from its OpenAPI
 * document. Per call: find the operation, check the bearer token (signature, issuer, audience,
 * expiry) and the operation's scopes against both the token and the client's current allowed
 * scopes, validate the request, then answer with the documented example. Calls are recorded for
 * analytics in the background.
 */
export default fp(
  async (app) => {
    const documents = createDocumentCache(app.db, app.log);
    const verify = createTokenVerifier({
      issuer: app.oauthServer.issuer,
      audience: app.oauthServer.resource,
      keys: app.oauthServer.publicKeys,
    });
    const recorder = createCallRecorder(app.db, app.log);
    app.decorate('callRecorder', recorder);
    app.decorate('flushCallRecorder', () => recorder.flush());
    app.decorate('sandboxDocuments', documents);
    // Registered after the database plugin: closes (flushes) before the database does.
    app.addHook('onClose', async () => recorder.close());

    const calls = new WeakMap<FastifyRequest, CallContext>();

    await app.register(async (scope) => {
      // The body is validated against the document, so it arrives raw whatever its type.
      scope.removeAllContentTypeParsers();
      scope.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));

      // Browser apps of any origin may call the sandbox: bearer tokens, never cookies.
      scope.addHook('onRequest', async (request, reply) => {
        reply.header('Access-Control-Allow-Origin', '*');
        reply.header('Access-Control-Expose-Headers', 'WWW-Authenticate, Request-Id, Allow');
        if (request.method === 'OPTIONS' && request.headers['access-control-request-method']) {
          const headers = request.headers['access-control-request-headers'];
          return reply
            .status(204)
            .header('Access-Control-Allow-Methods', 'GET, PUT, POST, DELETE, PATCH, HEAD, OPTIONS')
            .header(
              'Access-Control-Allow-Headers',
              typeof headers === 'string' ? headers : 'Authorization, Content-Type',
            )
            .header('Access-Control-Max-Age', '600')
            .send();
        }
        return undefined;
      });

      scope.addHook('onResponse', async (request, reply) => {
        const call = calls.get(request);
        if (!call) return;
        recorder.record({
          occurredAt: new Date(),
          applicationUuid: call.applicationUuid,
          clientId: call.clientId,
          environment: call.environment,
          apiAlias: call.alias,
          endpoint: call.endpoint,
          method: call.method,
          status: reply.statusCode,
          durationMs: reply.elapsedTime,
        });
      });

      const handler = async (
        request: FastifyRequest<{ Params: { alias: string; '*'?: string } }>,
        reply: FastifyReply,
      ) => {
        const { alias } = request.params;
        const api = await documents.get(alias);
        if (!api) {
          return sendError(reply, 404, {
            error: 'not_found',
            error_description: `no API with alias '${alias}' in the sandbox`,
          });
        }
        const url = request.raw.url ?? '/';
        const q = url.indexOf('?');
        const fullPath = q === -1 ? url : url.slice(0, q);
        const prefix = `${SANDBOX_PREFIX}/${encodeURIComponent(alias)}`;
        const path = fullPath.startsWith(prefix)
          ? fullPath.slice(prefix.length)
          : `/${request.params['*'] ?? ''}`;
        const matched = api.match(request.method, path || '/');
        if (!matched) {
          return sendError(reply, 404, {
            error: 'not_found',
            error_description: `no operation of '${alias}' matches ${request.method} ${path || '/'}`,
          });
        }
        if ('allowed' in matched) {
          reply.header('Allow', matched.allowed.join(', '));
          return sendError(reply, 405, {
            error: 'method_not_allowed',
            error_description: `${request.method} is not documented for ${path}; use ${matched.allowed.join(', ')}`,
          });
        }
        // The endpoint names its API (the path under /sandbox): versions of an API share paths, and
        // an application subscribed to two of them must see their calls apart in analytics.
        const endpoint = `${matched.method} /${alias}${matched.template}`;

        // Authorization.
        const needed = requiredScopes(api, matched);
        const raw = bearer(request);
        let token: VerifiedToken | undefined;
        if (raw === null) {
          if (needed) {
            return sendError(reply, 401, {
              error: 'invalid_token',
              error_description: 'the Authorization header must be "Bearer <access token>"',
            });
          }
        } else if (raw !== undefined) {
          try {
            token = await verify(raw);
          } catch (err) {
            if (!needed) token = undefined;
            else if (err instanceof TokenError)
              return sendError(reply, 401, { error: 'invalid_token', error_description: err.message });
            else throw err;
          }
        }
        if (needed && !token) {
          return sendError(reply, 401, {
            error: 'invalid_token',
            error_description: `an access token is required: get one at ${app.oauthServer.issuer}/token`,
          });
        }
        if (token) {
          const access = await app.oauthClients.clientAccess(token.clientId);
          if (!access) {
            return sendError(reply, 401, {
              error: 'invalid_token',
              error_description: 'the client of this access token no longer exists',
            });
          }
          calls.set(request, {
            alias,
            endpoint,
            method: matched.method,
            clientId: access.clientId,
            applicationUuid: access.applicationUuid,
            environment: access.environment,
          });
          if (needed) {
            const allowed = new Set(access.scopes);
            const granted = token.scopes;
            const effective = (s: string) => granted.has(s) && allowed.has(s);
            if (!needed.some((alternative) => alternative.every(effective))) {
              const wanted = needed[0] ?? [];
              const missing = wanted.filter((s) => !effective(s));
              return sendError(reply, 403, {
                error: 'insufficient_scope',
                error_description: `this operation needs the scope ${missing.map((s) => `'${s}'`).join(' and ')}, which the access token does not grant (or the application is no longer subscribed to it)`,
                scope: wanted.join(' '),
              });
            }
          }
        }

        // Request validation.
        const failure = api.validate(matched, {
          method: request.method,
          path,
          query: new URLSearchParams(q === -1 ? '' : url.slice(q + 1)),
          headers: request.headers,
          contentType: request.headers['content-type'],
          body: Buffer.isBuffer(request.body) ? request.body : undefined,
        });
        if (failure) {
          return sendError(reply, failure.status, {
            error: failure.status === 415 ? 'unsupported_media_type' : 'invalid_request',
            error_description: failure.description,
            parameter: failure.parameter,
            ...(failure.pointer ? { pointer: failure.pointer } : {}),
          });
        }

        // The documented answer.
        const prefer = String(request.headers.prefer ?? '');
        const mock = mockResponse(matched.operation, api.doc, {
          accept: request.headers.accept,
          preferCode: /(?:^|[,;\s])code=(\w+)/.exec(prefer)?.[1],
          preferExample: /(?:^|[,;\s])example=([\w.-]+)/.exec(prefer)?.[1],
        });
        reply.headers(mock.headers).status(mock.status).header('Cache-Control', 'no-store');
        const payload = serializeBody(mock.contentType, mock.body);
        if (payload === undefined || request.method === 'HEAD') return reply.send();
        return reply.type(mock.contentType!).send(payload);
      };

      scope.all(`${SANDBOX_PREFIX}/:alias`, handler);
      scope.all(`${SANDBOX_PREFIX}/:alias/*`, handler);
    });
  },
  { name: 'gateway', dependencies: ['db', 'authz-server'] },
);

declare module 'fastify' {
  interface FastifyInstance {
    callRecorder: CallRecorder;
    /** Writes every buffered call record now (tests, shutdown). */
    flushCallRecorder(): Promise<void>;
    sandboxDocuments: ReturnType<typeof createDocumentCache>;
  }
}
