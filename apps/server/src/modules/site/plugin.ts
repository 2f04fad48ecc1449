import fp from 'fastify-plugin';
import { blockLayoutSchema, cookiesConsentSchema, newsletterSchema } from '@portico/contracts/site';
import { en } from '@portico/contracts/messages';
import { cleanHtml } from '../../lib/content-html.ts';
import { HttpError } from '../../lib/errors.ts';
import { hitRateLimit } from '../../lib/rate-limit.ts';
import { texts } from '../../lib/i18n.ts';
import { requestLocale } from '../../lib/locale.ts';
import { readerLocale } from '../../lib/translations.ts';
import { cacheAnswers } from '../../plugins/http-cache.ts';
import { consoleSiteRoutes } from './console.ts';
import { defaultConsent } from './defaults.ts';
import { siteContentRepo } from './site-content.ts';
import { siteDocumentIn } from './translations.ts';

/** Sign-ups per client address per hour: enough for people, too few for a script. */
const NEWSLETTER_LIMIT = 10;

/**
 * Site content calls of spec B section 7: `/block-layout` (banners, footer), the cookie popup
 * texts, and the newsletter sign-up of the footer.
 */
export default fp(
  async (app) => {
    const content = siteContentRepo(app.db);

    await app.register(async (scope) => {
      // Site content depends only on its table: answered from memory until it changes (decision 028).
      // In the reader's language (`langcode`, decision 064): the URL keys the cached answers.
      cacheAnswers(scope, { domains: ['site', 'translations'], perUser: true });
      type Reader = { Querystring: { langcode?: unknown } };
      scope.get<Reader>('/block-layout', async (request, reply) => {
        const langcode = readerLocale(request.query.langcode);
        // An install without content/site still gets a valid, empty layout.
        const layout = blockLayoutSchema.parse((await content.get('block-layout')) ?? {});
        // The banners' HTML leaves sanitized, so the footer renders it without a sanitizer of its
        // own (DOMPurify would be a tenth of the home page's JavaScript; decision 018).
        layout.bottomBanners = layout.bottomBanners.map((b) => ({
          ...b,
          description: cleanHtml(b.description),
        }));
        const shown = await siteDocumentIn(app.db, 'block-layout', layout, langcode);
        return reply.header('Cache-Control', 'public, max-age=60').send(shown);
      });

      scope.get<Reader>('/phpsdk/cookies-consent', async (request, reply) => {
        const langcode = readerLocale(request.query.langcode);
        const stored = await content.get('cookies-consent');
        const consent = stored ? cookiesConsentSchema.parse(stored) : defaultConsent();
        const shown = await siteDocumentIn(app.db, 'cookies-consent', consent, langcode);
        return reply.header('Cache-Control', 'public, max-age=60').send(shown);
      });
    });

    await consoleSiteRoutes(app);

    app.post('/api/newsletter', async (request, reply) => {
      const parsed = newsletterSchema.safeParse(request.body ?? {});
      if (!parsed.success) {
        const missing = !(request.body as { email?: unknown } | undefined)?.email;
        throw new HttpError(400, missing ? en.newsletter.required : en.newsletter.invalidEmail, {
          code: 'invalid_email',
          pointer: '/email',
        });
      }
      const limit = await hitRateLimit(app.db, `newsletter:${request.ip}`, NEWSLETTER_LIMIT, 3600_000);
      if (!limit.allowed) {
        reply.header('Retry-After', String(limit.retryAfterSeconds));
        throw new HttpError(429, en.newsletter.failure);
      }
      const { email } = parsed.data;
      if (app.config.newsletterUrl) {
        // The provider's mailing service takes the address as a form post, like the spec's footer form.
        const res = await fetch(app.config.newsletterUrl, {
          method: 'POST',
          headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ email }),
          signal: AbortSignal.timeout(10_000),
        }).catch((err: unknown) => {
          request.log.warn({ err }, 'newsletter service unreachable');
          return undefined;
        });
        if (!res?.ok) throw new HttpError(502, en.newsletter.failure, { code: 'newsletter_unavailable' });
      } else {
        await app.db
          .insertInto('newsletter_subscriptions')
          .values({ email })
          .onConflict((oc) => oc.doNothing())
          .execute();
      }
      // The confirmation reaches the user: in the request's language (decision 058), like errors.
      const locale = requestLocale(request, request.user?.preferredLangcode);
      return reply
        .status(201)
        .header('Vary', 'Accept-Language, Cookie')
        .header('Content-Language', locale)
        .send({ message: texts(locale, 'errors', 'newsletter')('success') });
    });
  },
  { name: 'site', dependencies: ['session', 'db', 'http-cache'] },
);
