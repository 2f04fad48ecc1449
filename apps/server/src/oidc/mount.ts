import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { IncomingMessage } from 'node:http';
import type Provider from 'oidc-provider';
import type { KoaContextWithOIDC } from 'oidc-provider';
import { publicOrigin } from '../lib/public-url.ts';
import { overTls } from '../lib/transport.ts';
import { allowProviderRedirects } from './form-targets.ts';

/** What Fastify knows of a request's address, handed to the provider's koa context. */
const ADDRESS = Symbol('portico.address');
type RawRequest = IncomingMessage & { originalUrl?: string; [ADDRESS]?: { origin: URL; secure: boolean } };

/**
 * Mounts an oidc-provider instance under a path prefix of the Fastify app. The provider reads the
 * raw request body itself, so the mounted routes live in their own context without body parsers,
 * and the prefix is stripped from req.url (oidc-provider derives its mount path from originalUrl).
 *
 * oidc-provider builds every URL it writes (discovery's endpoints, jwks_uri, form actions, the
 * redirects to its interactions) from koa's host and protocol, which read the Host header (and
 * X-Forwarded-* when it trusts a proxy). The provider sees PUBLIC_URL's instead (publicOrigin), so
 * no Host a client sends comes back; its cookies are Secure whenever the request came over TLS
 * (overTls), as the portal's own are. After the provider answers, a page whose form ends at the
 * client (the logout confirmation, a form_post answer) names its target in form-action
 * (form-targets.ts).
 */
export async function mountOidcProvider(
  app: FastifyInstance,
  prefix: string,
  provider: Provider,
): Promise<void> {
  provider.use(async (ctx, next) => {
    const address = (ctx.req as RawRequest)[ADDRESS];
    if (address) {
      // Own properties shadow koa's getters (href and hostname follow them; the cookies read
      // `secure` when they are first used, after this).
      Object.defineProperties(ctx.request, {
        protocol: { value: address.origin.protocol.slice(0, -1) },
        host: { value: address.origin.host },
        secure: { value: address.secure },
      });
    }
    await next();
    allowProviderRedirects(ctx as KoaContextWithOIDC);
  });
  const handler = provider.callback();
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, _payload, done) => done(null));
    const forward = async (request: FastifyRequest, reply: FastifyReply) => {
      reply.hijack();
      const raw = request.raw as RawRequest;
      raw[ADDRESS] = { origin: new URL(publicOrigin(app, request)), secure: overTls(app, request) };
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
