import compress from '@fastify/compress';
import helmet from '@fastify/helmet';
import fp from 'fastify-plugin';

/**
 * Security headers and compression for every response.
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
          connectSrc: ["'self'"],
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
      hsts: app.config.publicUrl.startsWith('https:'),
    });
    await app.register(compress, { global: true, threshold: 1024, encodings: ['br', 'gzip'] });
  },
  { name: 'security' },
);
