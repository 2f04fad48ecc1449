import { en } from '@portico/contracts/messages';
import { format } from '@portico/contracts/format';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { HttpError } from '../lib/errors.ts';
import { findInvalidText, isStorableText, printableText } from '../lib/storable-text.ts';

/**
 * Refuses text that no database column can hold (lib/storable-text.ts), once, where requests come
 * in. Checked are the URL path (after
 * percent-decoding), the query, the cookies, and the parsed body (JSON or form), keys included.
 * The answer is a 400 JSON:API error naming the field: source.parameter for the path and the
 * query, source.pointer (a JSON pointer) for the body.
 *
 * Headers need no check: Node's HTTP parser already refuses NUL and other control characters in
 * them. Bodies the portal does not parse (uploads, the OAuth servers' own forms) are not seen
 * here; uploads are bytes, and the OIDC adapter refuses such ids itself.
 */

const pointer = (segments: string[]) =>
  segments.map((s) => '/' + s.replaceAll('~', '~0').replaceAll('/', '~1')).join('');

function invalidText(field: string, source: { parameter: string } | { pointer: string }): HttpError {
  return new HttpError(400, format(en.api.invalidText, { field: printableText(field) }), {
    code: 'invalid_text',
    ...('parameter' in source
      ? { parameter: printableText(source.parameter) }
      : { pointer: printableText(source.pointer) }),
  });
}

const PROVIDER_COOKIES = /^_(oauth_)?(session|interaction)/;

function readsCookie(app: FastifyInstance, name: string): boolean {
  return name === app.sessionCookieName || PROVIDER_COOKIES.test(name);
}

function decodedPath(url: string): string | undefined {
  const end = url.search(/[?#]/);
  const raw = end < 0 ? url : url.slice(0, end);
  try {
    return decodeURIComponent(raw);
  } catch {
    // Malformed percent-encoding: the router answers it (400) on its own.
    return undefined;
  }
}

export default fp(
  async (app) => {
    // Callback hooks (every request runs them): a refusal is passed to done, as a throw would be.
    const checkRequest = (request: FastifyRequest): void => {
      // Only percent-encoding can bring a NUL or a lone surrogate into the path or the query:
      // Node's HTTP parser refuses control characters and bytes past ASCII in a request's target.
      // A URL without '%' (one test of it, in case the parser was made lenient) needs no decoding.
      const url = request.url;
      if (url.includes('%') || !isStorableText(url)) {
        const path = decodedPath(url);
        if (path !== undefined && !isStorableText(path)) {
          throw new HttpError(400, en.api.invalidPath, { code: 'invalid_text', parameter: 'path' });
        }
        const query = findInvalidText(request.query);
        if (query) throw invalidText(query.join('.'), { parameter: query[0] ?? '' });
      }
      // The cookies the portal reads (its session, the OIDC providers' sessions and interactions),
      // before the session plugin looks one up. Other cookies on the host are none of our business.
      const cookie = request.headers.cookie;
      if (cookie !== undefined) {
        for (const part of cookie.split(';')) {
          const eq = part.indexOf('=');
          if (eq < 0) continue;
          const name = part.slice(0, eq).trim();
          if (!readsCookie(app, name)) continue;
          let value = part.slice(eq + 1).trim();
          try {
            value = decodeURIComponent(value);
          } catch {
            // Left as it is, as the cookie parser leaves it.
          }
          if (!isStorableText(value)) throw invalidText(`The cookie ${name}`, { parameter: name });
        }
      }
    };
    app.addHook('onRequest', (request, _reply, done) => {
      try {
        checkRequest(request);
      } catch (err) {
        return done(err as Error);
      }
      done();
    });
    app.addHook('preValidation', (request, _reply, done) => {
      const found = findInvalidText(request.body);
      if (found) return done(invalidText(found.join('.') || 'The request body', { pointer: pointer(found) }));
      done();
    });
  },
  { name: 'text-input' },
);
