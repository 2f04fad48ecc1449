import { randomUUID } from 'node:crypto';
import { LogController, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { Config } from '../config.ts';
import { errorDocument } from '../jsonapi/errors.ts';
import { HttpError } from '../lib/errors.ts';
import { TooManyRequests } from '../lib/rate-limit.ts';

/**
 * What the portal's two Fastify instances share (decision 075): the portal's own (app.ts) and the
 * sandbox's (gateway/routes.ts), which answer on the same server.
 */

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** The options of both instances, but their logger. */
export function instanceOptions(config: Config): FastifyServerOptions {
  return {
    trustProxy: config.trustProxy,
    // The web app sends a fresh Request-Id per call; we log it and echo it back.
    requestIdHeader: false,
    genReqId: (req) => {
      const incoming = req.headers['request-id'];
      return typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    },
    logController: new LogController({
      requestIdLogLabel: 'requestId',
      // Probes hit these every few seconds; logging them drowns the useful lines.
      disableRequestLogging: (request) => request.url === '/healthz' || request.url === '/readyz',
    }),
    // Finish in-flight requests on close; idle keep-alive sockets are closed at once.
    forceCloseConnections: 'idle',
    bodyLimit: 1024 * 1024,
    // No deadline for plugins: opening the database may take minutes on a busy machine or behind
    // another instance's migrations, which is slow, not broken (plugins/db.ts reports progress).
    pluginTimeout: 0,
    // Path parameters up to 1,000 characters (find-my-way's default is 100): an operation's key is
    // its operationId, or up to 120 characters of its method and path, encoded in the reference's
    // addresses (VTEX's logistics API: `/api/apidocs/<alias>/operations/<key>` answered 404).
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 1000 },
  };
}

/**
 * The hooks and the error handler of both instances, added before anything else: the Request-Id
 * on every answer, `Connection: close` on answers begun once the instance is closing (requests in
 * flight finish, but their keep-alive connections must not hold the close open), and errors as
 * JSON:API documents (5xx details only in the log).
 */
export function requestBasics(app: FastifyInstance): void {
  // Hooks every request runs take a callback, not a promise: one microtask less each.
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('Request-Id', request.id);
    done();
  });
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (closing) reply.header('Connection', 'close');
    done(null, payload);
  });
  app.setErrorHandler((error, request, reply) => {
    // A rate limit's refusal says when to try again (lib/rate-limit.ts).
    if (error instanceof TooManyRequests) reply.header('Retry-After', String(error.retryAfterSeconds));
    if (error instanceof HttpError) {
      return reply.status(error.status).type('application/vnd.api+json').send(errorDocument(error));
    }
    const status =
      typeof (error as { statusCode?: unknown }).statusCode === 'number'
        ? (error as { statusCode: number }).statusCode
        : 500;
    if (status >= 500) {
      request.log.error({ err: error }, 'request failed');
      // 5xx details stay in the log, never in the response.
      return reply.status(status).type('application/vnd.api+json').send(errorDocument({ status }));
    }
    const message = error instanceof Error ? error.message : String(error);
    return reply.status(status).type('application/vnd.api+json').send(errorDocument({ status, message }));
  });
}
