import compress from '@fastify/compress';
import helmet from 'helmet';
import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isPrivateUseRedirectUri } from '@portico/contracts/redirect-uri';
import { ANSWER_ENCODINGS, COMPRESSED_FROM_BYTES } from '../lib/answer-encoding.ts';
import { HSTS_VALUE, overTls } from '../lib/transport.ts';

/**
 * @fastify/compress's options, here and in the sandbox's scope (gateway/routes.ts): the threshold
 * and encodings of the answers kept compressed (lib/answer-encoding.ts).
 */
export const COMPRESSION = {
  global: true,
  threshold: COMPRESSED_FROM_BYTES,
  encodings: [...ANSWER_ENCODINGS],
};

/** The policy with `sources` added to its directive `name`. */
function withSources(policy: string, name: string, sources: readonly string[]): string {
  if (!sources.length) return policy;
  return policy
    .split(';')
    .map((directive) => {
      const d = directive.trim();
      return d === name || d.startsWith(`${name} `) ? `${d} ${sources.join(' ')}` : d;
    })
    .join(';');
}

/**
 * The policy with `origins` added to its frame-src: the web app's pages embed the catalog's chat
 * bots (modules/catalog/chat-bots.ts), and only those; every other answer keeps frame-src 'self'.
 */
export function withFrameSources(policy: string, origins: readonly string[]): string {
  return withSources(policy, 'frame-src', origins);
}

/**
 * The CSP source that lets a form's redirect reach `uri`: its origin (https://app.example,
 * http://127.0.0.1:4299), or its scheme for a native app's private-use URI scheme
 * (com.example.app:, the one rule of contracts/redirect-uri.ts). Undefined for anything else.
 */
export function formActionSource(uri: string): string | undefined {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return undefined;
  }
  if (url.protocol === 'http:' || url.protocol === 'https:') return url.origin;
  return isPrivateUseRedirectUri(uri) ? url.protocol : undefined;
}

/**
 * The policy with form-action opened to exactly the targets `uris` (and 'self' kept): form-action
 * also governs every redirect after a form's submission, so a sign-in, consent or logout page
 * whose POST ends at a client's redirect URI on another origin must name it (oidc/form-targets.ts).
 */
export function withFormTargets(policy: string, uris: readonly string[]): string {
  const sources = uris.map(formActionSource).filter((s): s is string => s !== undefined);
  return withSources(policy, 'form-action', [...new Set(sources)]);
}

/** The security headers of every answer, in order (helmet's, worked out once). */
export type SecurityHeaders = readonly (readonly [name: string, value: string])[];

/**
 * What helmet's middleware sets, run once against a stand-in response: its options are static
 * (no nonce, no directive computed per request), so every request gets the same headers.
 */
function fixedHeaders(middleware: ReturnType<typeof helmet>): SecurityHeaders {
  const headers: [string, string][] = [];
  const res = {
    setHeader(name: string, value: unknown) {
      const i = headers.findIndex(([n]) => n.toLowerCase() === name.toLowerCase());
      if (i >= 0) headers.splice(i, 1);
      headers.push([name, String(value)]);
    },
    removeHeader(name: string) {
      const i = headers.findIndex(([n]) => n.toLowerCase() === name.toLowerCase());
      if (i >= 0) headers.splice(i, 1);
    },
  };
  let failed: unknown;
  middleware(
    {} as Parameters<typeof middleware>[0],
    res as unknown as Parameters<typeof middleware>[1],
    (err?: unknown) => {
      failed = err;
    },
  );
  if (failed) throw failed instanceof Error ? failed : new Error(String(failed));
  return Object.freeze(headers.map((h) => Object.freeze(h)));
}

/** Sets the security headers (and HSTS over TLS, lib/transport.ts) on the raw response. */
export function setSecurityHeaders(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  headers: SecurityHeaders,
): void {
  const raw = reply.raw;
  for (const [name, value] of headers) raw.setHeader(name, value);
  if (overTls(app, request)) raw.setHeader('Strict-Transport-Security', HSTS_VALUE);
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
    // helmet's middleware, made once: its headers are worked out here and only set per request
    // (@fastify/helmet made the middleware anew for every request, parsing the policy each time:
    // 7 % of a sandbox call's time in the profile of decision 055).
    const securityHeaders = helmet({
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
          // Pages of /idp and /oauth add their interaction's redirect targets (withFormTargets).
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
    // Its answer does not depend on the request (static directives, no nonces): worked out once
    // and set per request from a list (decision 059), here and by the sandbox's own instance.
    const fixed = fixedHeaders(securityHeaders);
    app.decorate('securityHeaders', fixed);
    // On the raw response, from the start: answers written past Fastify's reply (oidc-provider's
    // at /idp and /oauth, hijacked interaction routes) carry them too.
    app.addHook('onRequest', (request, reply, done) => {
      setSecurityHeaders(app, request, reply, fixed);
      done();
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
    await app.register(compress, COMPRESSION);
  },
  { name: 'security' },
);

declare module 'fastify' {
  interface FastifyInstance {
    /** The security headers every answer gets (helmet's, worked out at start-up). */
    securityHeaders: SecurityHeaders;
  }
}
