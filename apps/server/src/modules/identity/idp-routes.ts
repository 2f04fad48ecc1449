import { createHash, randomBytes } from 'node:crypto';
import formbody from '@fastify/formbody';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type Provider from 'oidc-provider';
import { z } from 'zod';
import { en } from '@portico/contracts/messages';
import { dummyPasswordHash, hashPassword, verifyPassword } from '../../lib/passwords.ts';
import { hitRateLimit } from '../../lib/rate-limit.ts';
import { allowInteractionRedirect } from '../../oidc/form-targets.ts';
import { confirmConsent } from '../../oidc/consent.ts';
import { translateError } from '../../lib/error-language.ts';
import { mailLocale, texts, uiLocale, siteTitle } from '../../lib/i18n.ts';
import { requestLocale } from '../../lib/locale.ts';
import type { Locale } from '@portico/contracts/locales';
import { IDP_PREFIX } from './idp-provider.ts';
import {
  agentConsentPage,
  errorPage,
  identityTexts,
  resetPasswordPage,
  resetRequestPage,
  signInPage,
  verifyEmailPage,
  signUpPage,
  type SignUpValues,
} from './idp-pages.ts';
import { addressProven } from './address-proven.ts';
import { endEverySession, pendingVerification, sendVerificationMail, verifyEmail } from './service.ts';
import { signInGuard, waitText } from './sign-in-guard.ts';
import { displayName, usersRepo } from './users-repo.ts';

const EN = en.identity;

const RATE_WINDOW_MS = 15 * 60_000;
const HOUR_MS = 60 * 60_000;
const RESET_TTL_MS = 60 * 60_000;

const signUpSchema = z.object({
  firstName: z.string().trim().min(1, EN.namesRequired).max(100, EN.nameTooLong),
  lastName: z.string().trim().min(1, EN.namesRequired).max(100, EN.nameTooLong),
  email: z.email(EN.invalidEmail).max(254, EN.emailTooLong),
  password: z.string().min(8, EN.passwordTooShort).max(200, EN.passwordTooLong),
});

const sha256 = (v: string) => createHash('sha256').update(v).digest('base64url');
const field = (body: unknown, name: string): string => {
  const value = (body as Record<string, unknown> | undefined)?.[name];
  return typeof value === 'string' ? value : '';
};

/** The built-in identity provider's own pages: sign in, sign up, password reset. */
export async function identityPageRoutes(app: FastifyInstance, provider: Provider): Promise<void> {
  const users = usersRepo(app.db);
  const guard = signInGuard(app);

  await app.register(async (scope) => {
    await scope.register(formbody);
    const html = (reply: FastifyReply, page: string, status = 200) =>
      reply.status(status).header('Cache-Control', 'no-store').type('text/html; charset=utf-8').send(page);

    // The interaction's forms end at its client's redirect URI, on another origin for an outside
    // relying party: their form-action names it (oidc/form-targets.ts).
    const details = async (request: FastifyRequest, reply: FastifyReply) => {
      let interaction;
      try {
        interaction = await provider.interactionDetails(request.raw, reply.raw);
      } catch {
        return undefined;
      }
      await allowInteractionRedirect(provider, interaction, reply);
      return interaction;
    };
    // The page's language: the one the relying party asked for with ui_locales (OIDC Core
    // 3.1.2.1), else the request's (the header's cookie, Accept-Language).
    const localeOf = (request: FastifyRequest, interaction?: { params: Record<string, unknown> }): Locale =>
      uiLocale(interaction?.params.ui_locales) ?? requestLocale(request, request.user?.preferredLangcode);
    const expired = (request: FastifyRequest, reply: FastifyReply) => {
      const locale = localeOf(request);
      return html(
        reply,
        errorPage(
          locale,
          'signInExpiredTitle',
          identityTexts(locale)('interactionExpired'),
          `${app.config.publicUrl}/login`,
        ),
        400,
      );
    };

    const finishLogin = async (request: FastifyRequest, reply: FastifyReply, accountId: string) => {
      reply.hijack();
      await provider.interactionFinished(
        request.raw,
        reply.raw,
        { login: { accountId, amr: ['pwd'] } },
        { mergeWithLastSubmission: false },
      );
    };

    const hrefs = (uid: string) => ({
      login: `${IDP_PREFIX}/interaction/${uid}/login`,
      signup: `${IDP_PREFIX}/interaction/${uid}/signup`,
      reset: `${IDP_PREFIX}/reset?interaction=${encodeURIComponent(uid)}`,
      signIn: `${IDP_PREFIX}/interaction/${uid}`,
    });

    scope.get<{ Params: { uid: string } }>(`${IDP_PREFIX}/interaction/:uid`, async (request, reply) => {
      const interaction = await details(request, reply);
      if (!interaction || interaction.uid !== request.params.uid) return expired(request, reply);
      const h = hrefs(interaction.uid);
      const locale = localeOf(request, interaction);
      // An assistant (a registered client, agent-access.ts) asks its signed-in user's consent.
      if (interaction.prompt.name === 'consent' && interaction.session?.accountId) {
        const user = await users.findByUuid(interaction.session.accountId);
        const client = await provider.Client.find(String(interaction.params.client_id ?? ''));
        if (!user || !client) return expired(request, reply);
        let redirectHost = String(interaction.params.redirect_uri ?? '');
        try {
          redirectHost = new URL(redirectHost).origin;
        } catch {
          // Shown as sent: the provider checked it against the client's registered URIs.
        }
        return html(
          reply,
          agentConsentPage({
            locale,
            action: `${IDP_PREFIX}/interaction/${interaction.uid}/confirm`,
            denyAction: `${IDP_PREFIX}/interaction/${interaction.uid}/abort`,
            clientName: client.clientName,
            userName: user.name,
            redirectHost,
          }),
        );
      }
      if (interaction.params.screen === 'signup') {
        return html(reply, signUpPage({ locale, action: h.signup, signInHref: `${h.signIn}?screen=signin` }));
      }
      return html(reply, signInPage({ locale, action: h.login, signUpHref: h.signup, resetHref: h.reset }));
    });

    scope.get<{ Params: { uid: string } }>(
      `${IDP_PREFIX}/interaction/:uid/signup`,
      async (request, reply) => {
        const interaction = await details(request, reply);
        if (!interaction || interaction.uid !== request.params.uid) return expired(request, reply);
        const h = hrefs(interaction.uid);
        const locale = localeOf(request, interaction);
        return html(reply, signUpPage({ locale, action: h.signup, signInHref: h.signIn }));
      },
    );

    scope.post<{ Params: { uid: string } }>(
      `${IDP_PREFIX}/interaction/:uid/login`,
      async (request, reply) => {
        const interaction = await details(request, reply);
        if (!interaction || interaction.uid !== request.params.uid) return expired(request, reply);
        const h = hrefs(interaction.uid);
        const email = field(request.body, 'email').trim();
        const password = field(request.body, 'password');
        const locale = localeOf(request, interaction);
        const M = identityTexts(locale);
        const page = (error: string, status: number) =>
          html(
            reply,
            signInPage({ locale, action: h.login, signUpHref: h.signup, resetHref: h.reset, email, error }),
            status,
          );

        // Growing delays per address and per IP; clients this account signed in from before keep
        // working (sign-in-guard.ts).
        const user = email ? await users.findByEmail(email) : undefined;
        const attempt = await guard.attempt(request, email, user?.id, user?.uuid);
        if (!attempt.allowed) {
          reply.header('Retry-After', String(attempt.retryAfterSeconds));
          return page(M('signInThrottled', { wait: waitText(attempt.retryAfterSeconds, locale) }), 429);
        }
        const ok = user?.password_hash
          ? await verifyPassword(password, user.password_hash)
          : (await verifyPassword(password, await dummyPasswordHash()), false);
        if (!user || !ok) {
          await attempt.failed();
          return page(M('invalidCredentials'), 401);
        }
        // Blocked by an administrator (issue 27): told so only after the right password, so the
        // page reveals nothing about an account to someone who does not know its password.
        if (user.blocked_at) return page(M('accountBlocked'), 403);
        await attempt.succeeded(reply);
        return finishLogin(request, reply, user.uuid);
      },
    );

    // The assistant's consent: the grant holds exactly what the provider found missing (the
    // `portal` scope at the /mcp resource, and any OpenID scopes asked for).
    scope.post<{ Params: { uid: string } }>(
      `${IDP_PREFIX}/interaction/:uid/confirm`,
      async (request, reply) => {
        const interaction = await details(request, reply);
        if (
          !interaction ||
          interaction.uid !== request.params.uid ||
          interaction.prompt.name !== 'consent' ||
          !interaction.session?.accountId
        )
          return expired(request, reply);
        if (!(await confirmConsent(provider, interaction, request, reply))) return expired(request, reply);
        request.log.info(
          { clientId: interaction.params.client_id, accountId: interaction.session.accountId },
          'assistant allowed',
        );
      },
    );

    scope.post<{ Params: { uid: string } }>(
      `${IDP_PREFIX}/interaction/:uid/abort`,
      async (request, reply) => {
        const interaction = await details(request, reply);
        if (!interaction || interaction.uid !== request.params.uid) return expired(request, reply);
        reply.hijack();
        await provider.interactionFinished(
          request.raw,
          reply.raw,
          { error: 'access_denied', error_description: en.mcp.denied },
          { mergeWithLastSubmission: false },
        );
      },
    );

    scope.post<{ Params: { uid: string } }>(
      `${IDP_PREFIX}/interaction/:uid/signup`,
      async (request, reply) => {
        const interaction = await details(request, reply);
        if (!interaction || interaction.uid !== request.params.uid) return expired(request, reply);
        const h = hrefs(interaction.uid);
        const values: SignUpValues = {
          firstName: field(request.body, 'firstName'),
          lastName: field(request.body, 'lastName'),
          email: field(request.body, 'email').trim(),
        };
        const locale = localeOf(request, interaction);
        const M = identityTexts(locale);
        const page = (error: string, status: number) =>
          html(reply, signUpPage({ locale, action: h.signup, signInHref: h.signIn, values, error }), status);
        const parsed = signUpSchema.safeParse({ ...values, password: field(request.body, 'password') });
        // The schema's messages are the catalogue's English; the page shows them in its language.
        if (!parsed.success)
          return page(
            translateError(parsed.error.issues[0]?.message ?? en.identity.invalidEmail, locale),
            400,
          );
        const limit = await hitRateLimit(
          app.db,
          `signup:ip:${request.ip}`,
          app.config.signupRateLimit,
          HOUR_MS,
        );
        if (!limit.allowed) return page(M('tooManyAttempts'), 429);
        const { firstName, lastName, email, password } = parsed.data;
        const created = await users.create({
          email,
          name: displayName(firstName, lastName, email),
          firstName,
          lastName,
          passwordHash: await hashPassword(password),
          // The language the account was made in is the one its e-mails are written in.
          preferredLangcode: locale,
        });
        if (!created) return page(M('emailTaken'), 409);
        request.log.info({ userId: created.id }, 'user signed up');
        // The account works at once, but nothing sent to the address is its own until the link
        // sent there is opened. A mail failure does not undo the sign-up: the portal offers a resend.
        await sendVerificationMail(app, created).catch((err: unknown) =>
          request.log.warn({ err, userId: created.id }, 'verification e-mail failed'),
        );
        return finishLogin(request, reply, created.uuid);
      },
    );

    // Password reset: a one-hour single-use link sent by e-mail (or to the outbox).
    scope.get<{ Querystring: { interaction?: string } }>(`${IDP_PREFIX}/reset`, async (request, reply) => {
      const uid = request.query.interaction;
      return html(
        reply,
        resetRequestPage({
          locale: localeOf(request),
          action: `${IDP_PREFIX}/reset${uid ? `?interaction=${encodeURIComponent(uid)}` : ''}`,
          ...(uid ? { signInHref: `${IDP_PREFIX}/interaction/${encodeURIComponent(uid)}` } : {}),
        }),
      );
    });

    scope.post<{ Querystring: { interaction?: string } }>(`${IDP_PREFIX}/reset`, async (request, reply) => {
      const email = field(request.body, 'email').trim();
      const uid = request.query.interaction;
      const signInHref = uid ? `${IDP_PREFIX}/interaction/${encodeURIComponent(uid)}` : undefined;
      const locale = localeOf(request);
      const limit = await hitRateLimit(
        app.db,
        `reset:ip:${request.ip}`,
        app.config.loginRateLimit,
        RATE_WINDOW_MS,
      );
      if (!limit.allowed) {
        return html(
          reply,
          resetRequestPage({
            locale,
            action: `${IDP_PREFIX}/reset`,
            error: identityTexts(locale)('tooManyAttempts'),
          }),
          429,
        );
      }
      const user = z.email().safeParse(email).success ? await users.findByEmail(email) : undefined;
      if (user) {
        const token = randomBytes(32).toString('base64url');
        await app.db
          .insertInto('password_resets')
          .values({
            token_hash: sha256(token),
            user_id: user.id,
            expires_at: new Date(Date.now() + RESET_TTL_MS),
            used_at: null,
          })
          .execute();
        const link = `${app.config.publicUrl}${IDP_PREFIX}/reset/${token}`;
        // In the account's language, else English (the page's language is the visitor's).
        const mail = texts(mailLocale(user.preferred_langcode), 'emails', 'identity');
        await app.mailer.send({
          to: user.email,
          subject: mail('resetMailSubject', { site: siteTitle(mail.locale) }),
          text: mail('resetMailText', { name: user.name, link }),
        });
      }
      // The same answer whether or not the account exists: no account enumeration.
      return html(
        reply,
        resetRequestPage({
          locale,
          action: `${IDP_PREFIX}/reset`,
          sent: true,
          ...(signInHref ? { signInHref } : {}),
        }),
      );
    });

    const findReset = (token: string) =>
      app.db
        .selectFrom('password_resets')
        .selectAll()
        .where('token_hash', '=', sha256(token))
        .where('used_at', 'is', null)
        .where('expires_at', '>', new Date())
        .executeTakeFirst();

    scope.get<{ Params: { token: string } }>(`${IDP_PREFIX}/reset/:token`, async (request, reply) => {
      const home = `${app.config.publicUrl}/`;
      const locale = localeOf(request);
      const M = identityTexts(locale);
      if (!(await findReset(request.params.token))) {
        return html(reply, errorPage(locale, 'resetTitle', M('resetLinkInvalid'), home), 400);
      }
      return html(
        reply,
        resetPasswordPage({ locale, action: `${IDP_PREFIX}/reset/${request.params.token}`, homeHref: home }),
      );
    });

    scope.post<{ Params: { token: string } }>(`${IDP_PREFIX}/reset/:token`, async (request, reply) => {
      const home = `${app.config.publicUrl}/`;
      const locale = localeOf(request);
      const M = identityTexts(locale);
      const action = `${IDP_PREFIX}/reset/${request.params.token}`;
      const password = field(request.body, 'password');
      // The same length rules as sign-up: a huge password would only cost hashing time.
      const tooShortOrLong = signUpSchema.shape.password.safeParse(password);
      if (!tooShortOrLong.success) {
        const error = translateError(tooShortOrLong.error.issues[0]?.message ?? EN.passwordTooShort, locale);
        return html(reply, resetPasswordPage({ locale, action, homeHref: home, error }), 400);
      }
      const hash = await hashPassword(password);
      const changed = await app.db.transaction().execute(async (trx) => {
        const used = await trx
          .updateTable('password_resets')
          .set({ used_at: new Date() })
          .where('token_hash', '=', sha256(request.params.token))
          .where('used_at', 'is', null)
          .where('expires_at', '>', new Date())
          .returning('user_id')
          .executeTakeFirst();
        if (!used) return false;
        // The link went to the account's address: opening it proves the address too.
        const user = await trx
          .updateTable('users')
          .set({ password_hash: hash, email_verified: true, updated_at: new Date() })
          .where('id', '=', used.user_id)
          .returning(['id', 'uuid', 'email'])
          .executeTakeFirstOrThrow();
        // What was sent to the address becomes the account's with the proof (address-proven.ts).
        await addressProven(trx, user);
        // A changed password ends every session of that user, at the portal and at the provider.
        await endEverySession(trx, user);
        return true;
      });
      if (!changed) return html(reply, errorPage(locale, 'resetTitle', M('resetLinkInvalid'), home), 400);
      return html(reply, resetPasswordPage({ locale, action, homeHref: home, done: true }));
    });

    // E-mail verification: the link shows a confirm button (mail scanners that open links do not
    // use it up); the POST proves the address. The token is the credential, as for the reset.
    scope.get<{ Params: { token: string } }>(`${IDP_PREFIX}/verify/:token`, async (request, reply) => {
      const home = `${app.config.publicUrl}/`;
      const locale = localeOf(request);
      const M = identityTexts(locale);
      const pending = await pendingVerification(app.db, request.params.token);
      if (!pending) return html(reply, errorPage(locale, 'verifyTitle', M('verifyLinkInvalid'), home), 400);
      return html(
        reply,
        verifyEmailPage({
          locale,
          action: `${IDP_PREFIX}/verify/${request.params.token}`,
          email: pending.email,
          homeHref: home,
        }),
      );
    });

    scope.post<{ Params: { token: string } }>(`${IDP_PREFIX}/verify/:token`, async (request, reply) => {
      const home = `${app.config.publicUrl}/`;
      const locale = localeOf(request);
      const M = identityTexts(locale);
      if (!(await verifyEmail(app.db, request.params.token))) {
        return html(reply, errorPage(locale, 'verifyTitle', M('verifyLinkInvalid'), home), 400);
      }
      return html(reply, verifyEmailPage({ locale, action: '', email: '', homeHref: home, done: true }));
    });
  });
}
