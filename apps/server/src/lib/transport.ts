import type { FastifyInstance, FastifyRequest } from 'fastify';

/**
 * Whether a request reached the portal over TLS: PUBLIC_URL is https, or the request itself came
 * over https — directly, or through a TLS-terminating proxy that says so in X-Forwarded-Proto when
 * TRUST_PROXY=true (Fastify's request.protocol reads it only then). Secure cookies and HSTS follow
 * this, so a deployment behind TLS gets both even with a plain PUBLIC_URL.
 */
export function overTls(app: FastifyInstance, request: FastifyRequest): boolean {
  return app.config.publicUrl.startsWith('https:') || request.protocol === 'https';
}

/** HSTS for a year on every answer over TLS (browsers ignore it over plain http anyway). */
export const HSTS_VALUE = 'max-age=31536000; includeSubDomains';
