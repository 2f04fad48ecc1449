import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type Provider from 'oidc-provider';
import type { KoaContextWithOIDC } from 'oidc-provider';
import { overTls } from '../lib/transport.ts';
import { allowProviderRedirects } from './form-targets.ts';

/** Requests that reached the portal over TLS (lib/transport.ts), as the provider is handed them. */
const overTlsRequests = new WeakSet<IncomingMessage>();

/**
 * Mounts an oidc-provider instance under a path prefix of the Fastify app. The provider reads the
 * raw request body itself, so the mounted routes live in their own context without body parsers,
 * and the prefix is stripped from req.url (oidc-provider derives its mount path from originalUrl).
 * A request the portal got over TLS is https to the provider too (its cookies are then Secure),
 * whatever Koa would read from the socket: an https PUBLIC_URL says so, with or without a proxy
 * that reports it.
 */
export async function mountOidcProvider(
  app: FastifyInstance,
  prefix: string,
  provider: Provider,
): Promise<void> {
  provider.use(async (ctx, next) => {
    if (overTlsRequests.has(ctx.req)) Object.defineProperty(ctx.request, 'protocol', { value: 'https' });
    await next();
    allowProviderRedirects(ctx as KoaContextWithOIDC);
  });
  const handler = provider.callback();
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, _payload, done) => done(null));
    const forward = async (request: FastifyRequest, reply: FastifyReply) => {
      reply.hijack();
      const raw = request.raw as typeof request.raw & { originalUrl?: string };
      raw.originalUrl = raw.url;
      raw.url = (raw.url ?? '/').slice(prefix.length) || '/';
      if (overTls(app, request)) overTlsRequests.add(raw);
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
