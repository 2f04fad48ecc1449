import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { DEFAULT_LOCALE } from '@portico/contracts/locales';
import { translateErrorDocument } from '../lib/error-language.ts';
import { ApiErrors } from '../jsonapi/errors.ts';
import { HttpError } from '../lib/errors.ts';
import { requestLocale } from '../lib/locale.ts';
import type { ZodIssue } from '../lib/zod-language.ts';

/**
 * The API's error messages in the request's language (issue 30, decision 058): the signed-in
 * user's own (`users.preferred_langcode`), else the header's choice (the `portico_lang` cookie),
 * else Accept-Language, else English. Every JSON error answer (status 400 and up, JSON:API or
 * JSON) passes here once, whichever error handler wrote it, so routes keep throwing the
 * catalogue's English text. The web app shows the title it gets: its requests carry the cookie
 * and the browser's Accept-Language, so its errors are in the language it shows.
 */
/** The schema checks an error carries: an HttpError's one, an ApiErrors' entries'. */
function issuesOf(error: unknown): ZodIssue[] {
  if (error instanceof HttpError) return [...error.issues];
  if (error instanceof ApiErrors) return error.entries.flatMap((e) => (e.issue ? [e.issue] : []));
  return [];
}

export const errorLanguagePlugin = fp(
  async (app: FastifyInstance) => {
    // The failed schema checks of a request's error, kept until its answer is sent.
    const checks = new WeakMap<FastifyRequest, ZodIssue[]>();
    app.addHook('onError', (request, _reply, error, done) => {
      const issues = issuesOf(error);
      if (issues.length) checks.set(request, issues);
      done();
    });
    const inLanguage = (request: FastifyRequest, reply: FastifyReply, payload: unknown): unknown => {
      if (reply.statusCode < 400 || typeof payload !== 'string') return payload;
      const type = String(reply.getHeader('content-type') ?? '');
      if (!/^application\/(vnd\.api\+)?json\b/.test(type)) return payload;
      // The answer depends on the language headers (a shared cache must not mix them).
      const vary = String(reply.getHeader('vary') ?? '');
      if (!/accept-language/i.test(vary))
        reply.header('Vary', vary ? `${vary}, Accept-Language` : 'Accept-Language');
      const locale = requestLocale(request, request.user?.preferredLangcode);
      if (locale === DEFAULT_LOCALE) return payload;
      const translated = translateErrorDocument(payload, locale, checks.get(request));
      if (translated === undefined) return payload;
      reply.header('Content-Language', locale);
      return translated;
    };
    // A callback hook (every answer runs it): one microtask less than a promise.
    app.addHook('onSend', (request, reply, payload, done) => {
      let answer: unknown;
      try {
        answer = inLanguage(request, reply, payload);
      } catch (err) {
        return done(err as Error);
      }
      done(null, answer);
    });
  },
  { name: 'error-language' },
);
