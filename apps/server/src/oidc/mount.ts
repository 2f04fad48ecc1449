import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type Provider from 'oidc-provider';

/**
 * Mounts an oidc-provider instance under a path prefix of the Fastify app. The provider reads the
 * raw request body itself, so the mounted routes live in their own context without body parsers,
 * and the prefix is stripped from req.url (oidc-provider derives its mount path from originalUrl).
 */
export async function mountOidcProvider(
  app: FastifyInstance,
  prefix: string,
  provider: Provider,
): Promise<void> {
  const handler = provider.callback();
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, _payload, done) => done(null));
    const forward = async (request: FastifyRequest, reply: FastifyReply) => {
      reply.hijack();
      const raw = request.raw as typeof request.raw & { originalUrl?: string };
      raw.originalUrl = raw.url;
      raw.url = (raw.url ?? '/').slice(prefix.length) || '/';
      // Headers our hooks set (security headers, Request-Id) are on the Fastify reply: a hijacked
      // response bypasses it, so they are copied onto the raw response first.
      for (const [name, value] of Object.entries(reply.getHeaders())) {
        if (value !== undefined) reply.raw.setHeader(name, value);
      }
      handler(raw, reply.raw);
    };
    scope.all(`${prefix}/*`, forward);
    scope.all(prefix, forward);
  });
}
