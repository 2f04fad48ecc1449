import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import compress from '@fastify/compress';
import Fastify, {
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerFactory,
} from 'fastify';
import fp from 'fastify-plugin';
import { notFound } from '../lib/errors.ts';
import { errorLanguagePlugin } from '../plugins/error-language.ts';
import { instanceOptions, requestBasics } from '../plugins/request-basics.ts';
import { COMPRESSION, setSecurityHeaders } from '../plugins/security.ts';
import textInputPlugin from '../plugins/text-input.ts';
import { SANDBOX_PREFIX } from './plugin.ts';

type SandboxRequest = FastifyRequest<{ Params: { alias: string; '*'?: string } }>;
type Listener = (req: IncomingMessage, res: ServerResponse) => void;

/** Where the portal's server sends the calls of the sandbox, once its instance is ready. */
export interface SandboxDispatch {
  routing?: Listener;
}

/** A request the sandbox's routes answer: /sandbox/<alias>, and anything below it. */
const SANDBOX_CALL = new RegExp(`^${SANDBOX_PREFIX}/[^/?#]`);
export const isSandboxCall = (url: string | undefined): boolean => SANDBOX_CALL.test(url ?? '');

/**
 * The portal's HTTP server (Fastify's serverFactory, for the server it listens on and any other
 * address it binds): a call of the sandbox goes to the sandbox's instance, everything else to the
 * portal's. The server's timeouts are set as Fastify sets those of the servers it makes.
 */
export function serverWithSandbox(sandbox: SandboxDispatch): FastifyServerFactory {
  return (portal, options) => {
    // Fastify passes its options with their defaults filled in; its type leaves them unknown.
    const timeouts = options as {
      http?: http.ServerOptions;
      keepAliveTimeout?: number;
      requestTimeout?: number;
      connectionTimeout?: number;
      maxRequestsPerSocket?: number;
    };
    const server = http.createServer(timeouts.http ?? {}, (req, res) => {
      const routing = sandbox.routing && isSandboxCall(req.url) ? sandbox.routing : portal;
      routing(req, res);
    });
    if (timeouts.keepAliveTimeout !== undefined) server.keepAliveTimeout = timeouts.keepAliveTimeout;
    if (timeouts.requestTimeout !== undefined) server.requestTimeout = timeouts.requestTimeout;
    if (timeouts.connectionTimeout !== undefined) server.setTimeout(timeouts.connectionTimeout);
    if (timeouts.maxRequestsPerSocket) server.maxRequestsPerSocket = timeouts.maxRequestsPerSocket;
    return server;
  };
}

/**
 * The sandbox's routes, in a Fastify instance of their own on the portal's server (decision 075,
 * which replaces the scope of decision 059: a Fastify scope also runs every hook its parent gets
 * later, so the sandbox ran all of the portal's). A sandbox call runs only what it needs, not the
 * session's cookies and CSRF check, the answer cache's early answer and ETags, the identity's rate
 * limits. What it keeps of the portal's: the Request-Id, the Connection: close of a graceful stop
 * and the error handler (plugins/request-basics.ts), the security headers (the same ones, worked
 * out once by plugins/security.ts), the refusal of text no column can hold
 * (plugins/text-input.ts), error answers in the request's language (plugins/error-language.ts)
 * and the decompression of request bodies; the handler compresses its answers itself.
 *
 * The work itself (the token, the scopes, validation, the answer, the record) is the gateway
 * plugin's (gateway/plugin.ts), registered before this one with what it depends on.
 */
async function sandboxRoutes(scope: FastifyInstance): Promise<void> {
  // The body is validated against the document, so it arrives raw whatever its type.
  scope.removeAllContentTypeParsers();
  scope.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));

  // First, as in the portal: every answer carries them, refusals of the hooks below included.
  scope.addHook('onRequest', (request, reply, done) => {
    setSecurityHeaders(scope, request, reply, scope.securityHeaders);
    done();
  });
  await scope.register(textInputPlugin);
  await scope.register(errorLanguagePlugin);
  // As plugins/security.ts registers it for the rest of the portal.
  await scope.register(compress, COMPRESSION);

  const gateway = scope.sandboxGateway;
  scope.addHook('onRequest', (request, reply, done) => {
    if (!gateway.onRequest(request, reply)) done();
  });
  scope.addHook('onResponse', (request, reply, done) => {
    gateway.onResponse(request, reply);
    done();
  });

  // Only a method no route takes gets here (every path under /sandbox/<alias> has a route): the
  // portal's 404 document, as its own not-found handler answers an API path.
  scope.setNotFoundHandler(() => {
    throw notFound();
  });

  const handler = (request: SandboxRequest, reply: FastifyReply) => gateway.handler(request, reply);
  // The handler compresses its answers itself, each once (lib/answer-encoding.ts): the
  // plugin's hooks stay off these routes but its decompression of request bodies.
  scope.all(`${SANDBOX_PREFIX}/:alias`, { compress: false }, handler);
  scope.all(`${SANDBOX_PREFIX}/:alias/*`, { compress: false }, handler);
}

/**
 * Makes the sandbox's instance (`app.sandboxApp`: what the mutual-TLS port and the MCP server's
 * sandbox tool call), readies it with the portal and hands its routing to the server; it stops
 * taking calls when the portal begins to close, as the portal's own routes do.
 */
export default fp(
  async (app, options: { dispatch: SandboxDispatch }) => {
    const sandbox = Fastify({ ...instanceOptions(app.config), loggerInstance: app.log });
    // What the routes and the plugins above read of the portal: its configuration, its security
    // headers, the gateway, the session cookie's name (text-input.ts, which never lets the
    // cookies the portal reads carry what no column can hold).
    sandbox.decorate('config', app.config);
    sandbox.decorate('securityHeaders', app.securityHeaders);
    sandbox.decorate('sandboxGateway', app.sandboxGateway);
    sandbox.decorate('sessionCookieName', app.sessionCookieName);
    requestBasics(sandbox);
    await sandbox.register(sandboxRoutes);
    app.decorate('sandboxApp', sandbox);
    app.addHook('onReady', async () => {
      await sandbox.ready();
      options.dispatch.routing = sandbox.routing;
    });
    app.addHook('preClose', async () => {
      await sandbox.close();
    });
  },
  { name: 'sandbox-app', dependencies: ['gateway', 'security', 'session'] },
);

declare module 'fastify' {
  interface FastifyInstance {
    /** The sandbox's own Fastify instance (decision 075). */
    sandboxApp: FastifyInstance;
  }
}
