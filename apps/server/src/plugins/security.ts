import compress from '@fastify/compress';
import helmet from '@fastify/helmet';
import fp from 'fastify-plugin';
import { HSTS_VALUE, overTls } from '../lib/transport.ts';

/**
 * The policy with `origins` added to its frame-src: the web app's pages embed the catalog's chat
 * bots (modules/catalog/chat-bots.ts), and only those; every other answer keeps frame-src 'self'.
 */
export function withFrameSources(policy: string, origins: readonly string[]): string {
  if (!origins.length) return policy;
  return policy
    .split(';')
    .map((directive) => {
      const d = directive.trim();
      return d === 'frame-src' || d.startsWith('frame-src ') ? `${d} ${origins.join(' ')}` : d;
    })
    .join(';');
}

/**
 * Security headers and compression for every response; HSTS on every answer over TLS
 * (lib/transport.ts).
 * The CSP allows only our own scripts; Mantine sets inline style attributes, so styles allow
 * 'unsafe-inline' (styles cannot run code).
 */
export default fp(
  async (app) => {
    const external = app.config.oidc ? [new URL(app.config.oidc.issuer).origin] : [];
    await app.register(helmet, {
      contentSecurityPolicy: {
        useDefaults: false,
        directives: {
          defaultSrc: ["'self'"],
          scriptSrc: ["'self'"],
          styleSrc: ["'self'", "'unsafe-inline'"],
          imgSrc: ["'self'", 'data:', 'blob:', 'https:'],
          fontSrc: ["'self'", 'data:'],
          // The cloud document viewer calls the Drive API from the browser (modules/content).
          connectSrc: [
            "'self'",
            ...(app.config.cloudDocs ? [new URL(app.config.cloudDocs.apiUrl).origin] : []),
          ],
          // Pages of the web app add the catalog's chat bot origins (withFrameSources, web-app.ts).
          frameSrc: ["'self'"],
          frameAncestors: ["'self'"],
          formAction: ["'self'", ...external],
          objectSrc: ["'none'"],
          baseUri: ["'self'"],
          ...(app.config.publicUrl.startsWith('https:') ? { upgradeInsecureRequests: [] } : {}),
        },
      },
      // Cross-origin isolation headers would break the try-out popup's opener.
      crossOriginOpenerPolicy: { policy: 'same-origin-allow-popups' },
      crossOriginEmbedderPolicy: false,
      // Set below for answers over TLS, which a plain PUBLIC_URL behind a TLS proxy also gets.
      hsts: false,
    });
    app.addHook('onSend', async (request, reply) => {
      if (overTls(app, request)) reply.header('Strict-Transport-Security', HSTS_VALUE);
    });
    const { hostname } = new URL(app.config.publicUrl);
    if (
      app.config.nodeEnv === 'production' &&
      app.config.publicUrl.startsWith('http:') &&
      !['localhost', '127.0.0.1', '[::1]'].includes(hostname) &&
      !app.config.trustProxy
    ) {
      app.log.warn(
        'PUBLIC_URL is plain http and TRUST_PROXY is false: session cookies are not Secure and there is no HSTS. Serve the portal over https (PUBLIC_URL=https://…), or set TRUST_PROXY=true behind a TLS-terminating proxy.',
      );
    }
    await app.register(compress, { global: true, threshold: 1024, encodings: ['br', 'gzip'] });
  },
  { name: 'security' },
);
