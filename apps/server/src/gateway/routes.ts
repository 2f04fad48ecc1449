import compress from '@fastify/compress';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { errorLanguagePlugin } from '../plugins/error-language.ts';
import { COMPRESSION, setSecurityHeaders } from '../plugins/security.ts';
import textInputPlugin from '../plugins/text-input.ts';
import { SANDBOX_PREFIX } from './plugin.ts';

type SandboxRequest = FastifyRequest<{ Params: { alias: string; '*'?: string } }>;

/**
 * The sandbox's routes, in a scope of their own (decision 059). app.ts registers it before the
 * portal's plugins add their global hooks, which a Fastify scope only inherits from what its
 * parent had when it was registered: a sandbox call runs only what it needs, not the session's
 * cookies and CSRF check, the answer cache's ETags, the identity's rate limits. What it keeps of
 * the portal's: the Request-Id, the Connection: close of a graceful stop and the error handler
 * (app.ts, registered before), and here the security headers (the same ones, worked out once by
 * plugins/security.ts), the refusal of text no column can hold (plugins/text-input.ts), error
 * answers in the request's language (plugins/error-language.ts) and the decompression of request
 * bodies; the handler compresses its answers itself.
 *
 * The work itself (the token, the scopes, validation, the answer, the record) is the gateway
 * plugin's (gateway/plugin.ts), registered later with what it depends on: the routes ask for it
 * when a request comes.
 */
export async function sandboxRoutes(scope: FastifyInstance): Promise<void> {
  // The body is validated against the document, so it arrives raw whatever its type.
  scope.removeAllContentTypeParsers();
  scope.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));

  // First, as before: every answer carries them, refusals of the hooks below included.
  scope.addHook('onRequest', (request, reply, done) => {
    setSecurityHeaders(scope, request, reply, scope.securityHeaders);
    done();
  });
  await scope.register(textInputPlugin);
  await scope.register(errorLanguagePlugin);
  // As plugins/security.ts registers it for the rest of the portal.
  await scope.register(compress, COMPRESSION);

  scope.addHook('onRequest', (request, reply, done) => {
    if (!scope.sandboxGateway.onRequest(request, reply)) done();
  });
  scope.addHook('onResponse', (request, reply, done) => {
    scope.sandboxGateway.onResponse(request, reply);
    done();
  });

  const handler = (request: SandboxRequest, reply: FastifyReply) =>
    scope.sandboxGateway.handler(request, reply);
  // The handler compresses its answers itself, each once (lib/answer-encoding.ts): the
  // plugin's hooks stay off these routes but its decompression of request bodies.
  scope.all(`${SANDBOX_PREFIX}/:alias`, { compress: false }, handler);
  scope.all(`${SANDBOX_PREFIX}/:alias/*`, { compress: false }, handler);
}
