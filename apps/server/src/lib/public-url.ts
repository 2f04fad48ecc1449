import type { FastifyInstance, FastifyRequest } from 'fastify';

/**
 * Origins the portal may be reached at: PUBLIC_URL, plus the loopback aliases when PUBLIC_URL was
 * not set (a developer's portal answers on localhost and 127.0.0.1 alike).
 */
export function portalOrigins(app: FastifyInstance): string[] {
  const origins = [app.config.publicUrl];
  if (!app.config.publicUrlConfigured) {
    const port = app.config.port;
    origins.push(`http://127.0.0.1:${port}`, `http://localhost:${port}`, `http://[::1]:${port}`);
  }
  return [...new Set(origins)];
}

/**
 * The origin every absolute URL the portal writes is built on (JSON:API links, the issuers'
 * endpoints): PUBLIC_URL's. The Host header (and X-Forwarded-Host behind TRUST_PROXY) is only
 * looked at to pick one of portalOrigins, so a loopback alias stays on itself when PUBLIC_URL was
 * not set; any other host gets PUBLIC_URL, never itself.
 */
export function publicOrigin(app: FastifyInstance, request: FastifyRequest): string {
  const asked = `${request.protocol}://${request.host}`;
  return portalOrigins(app).includes(asked) ? asked : app.config.publicUrl;
}
