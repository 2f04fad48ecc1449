import formbody from '@fastify/formbody';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type Provider from 'oidc-provider';
import { en } from '@portico/contracts/messages';
import { dummyPasswordHash, verifyPassword } from '../lib/passwords.ts';
import { allowInteractionRedirect } from '../oidc/form-targets.ts';
import { confirmConsent } from '../oidc/consent.ts';
import { messageNumber, uiLocale } from '../lib/i18n.ts';
import { requestLocale } from '../lib/locale.ts';
import type { Locale } from '@portico/contracts/locales';
import { OAUTH_PREFIX } from './provider.ts';
import {
  sandboxConsentPage,
  sandboxErrorPage,
  sandboxScaFailedPage,
  sandboxSignInPage,
  sandboxTexts,
} from './pages.ts';
import { scriptOf } from './scripted-customers.ts';
import { sandboxSignInGuard } from './sandbox-sign-in-guard.ts';
import { sandboxUsersRepo } from './sandbox-users.ts';

const M = en.sandboxAuth;

const field = (body: unknown, name: string): string => {
  const value = (body as Record<string, unknown> | undefined)?.[name];
  return typeof value === 'string' ? value : '';
};

/**
 * The sandbox authorization server's own pages (customer sign-in and consent) and the spec's
 * `GET /authorize` alias of the authorization endpoint.
 */
export async function authorizationServerRoutes(app: FastifyInstance, provider: Provider): Promise<void> {
  const customers = sandboxUsersRepo(app.db);
  const guard = sandboxSignInGuard(app);

  // The try-out console opens /authorize: the same request at the provider's endpoint.
  app.get('/authorize', async (request, reply) => {
    const query = request.url.includes('?') ? request.url.slice(request.url.indexOf('?')) : '';
    return reply.redirect(`${OAUTH_PREFIX}/auth${query}`, 302);
  });

  await app.register(async (scope) => {
    await scope.register(formbody);
    const html = (reply: FastifyReply, page: string, status = 200) =>
      reply.status(status).header('Cache-Control', 'no-store').type('text/html; charset=utf-8').send(page);
    // The interaction's pages post forms that end at the client's redirect URI (Allow, Deny, a
    // sign-in to a consent already given): their form-action names it (oidc/form-targets.ts).
    const details = async (request: FastifyRequest<{ Params: { uid: string } }>, reply: FastifyReply) => {
      let interaction;
      try {
        interaction = await provider.interactionDetails(request.raw, reply.raw);
      } catch {
        return undefined;
      }
      if (interaction.uid !== request.params.uid) return undefined;
      await allowInteractionRedirect(provider, interaction, reply);
      return interaction;
    };
    // The page's language: the client's ui_locales (OIDC Core 3.1.2.1), else the request's.
    const localeOf = (request: FastifyRequest, interaction?: { params: Record<string, unknown> }): Locale =>
      uiLocale(interaction?.params.ui_locales) ?? requestLocale(request);
    const expired = (request: FastifyRequest, reply: FastifyReply) => {
      const locale = localeOf(request);
      return html(
        reply,
        sandboxErrorPage(locale, 'signInExpiredTitle', sandboxTexts(locale)('interactionExpired')),
        400,
      );
    };
    const paths = (uid: string) => ({
      login: `${OAUTH_PREFIX}/interaction/${uid}/login`,
      confirm: `${OAUTH_PREFIX}/interaction/${uid}/confirm`,
      abort: `${OAUTH_PREFIX}/interaction/${uid}/abort`,
    });
    const clientIdOf = (params: Record<string, unknown>) =>
      typeof params.client_id === 'string' ? params.client_id : '';

    scope.get<{ Params: { uid: string } }>(`${OAUTH_PREFIX}/interaction/:uid`, async (request, reply) => {
      const interaction = await details(request, reply);
      if (!interaction) return expired(request, reply);
      const p = paths(interaction.uid);
      const clientId = clientIdOf(interaction.params);
      const locale = localeOf(request, interaction);
      if (interaction.prompt.name === 'login' || !interaction.session?.accountId) {
        return html(reply, sandboxSignInPage({ locale, action: p.login, clientId }));
      }
      const customer = await customers.findByUuid(interaction.session.accountId);
      const promptDetails = interaction.prompt.details as {
        missingOIDCScope?: string[];
        missingResourceScopes?: Record<string, string[]>;
      };
      const scopes = [
        ...new Set([
          ...(promptDetails.missingOIDCScope ?? []),
          ...Object.values(promptDetails.missingResourceScopes ?? {}).flat(),
        ]),
      ];
      return html(
        reply,
        sandboxConsentPage({
          locale,
          action: p.confirm,
          denyAction: p.abort,
          clientId,
          customerName: customer?.name ?? sandboxTexts(locale)('unknownCustomer'),
          scopes,
        }),
      );
    });

    scope.post<{ Params: { uid: string } }>(
      `${OAUTH_PREFIX}/interaction/:uid/login`,
      async (request, reply) => {
        const interaction = await details(request, reply);
        if (!interaction) return expired(request, reply);
        const p = paths(interaction.uid);
        const clientId = clientIdOf(interaction.params);
        const username = field(request.body, 'username').trim();
        const password = field(request.body, 'password');
        const locale = localeOf(request, interaction);
        const T = sandboxTexts(locale);
        const page = (error: string, status: number) =>
          html(reply, sandboxSignInPage({ locale, action: p.login, clientId, username, error }), status);
        // Growing delays per caller, never per customer alone (sandbox-sign-in-guard.ts).
        const customer = username ? await customers.findByUsername(username) : undefined;
        const attempt = await guard.attempt(request, username, customer?.uuid);
        if (!attempt.allowed) {
          reply.header('Retry-After', String(attempt.retryAfterSeconds));
          return page(
            T('tooManyAttempts', { seconds: messageNumber(locale, attempt.retryAfterSeconds) }),
            429,
          );
        }
        const ok = customer
          ? await verifyPassword(password, customer.password_hash)
          : (await verifyPassword(password, await dummyPasswordHash()), false);
        if (!customer || !ok) return page(T('invalidCredentials'), 401);
        await attempt.succeeded(reply);
        // Scripted customers (scripted-customers.ts): the second factor fails, or the consent is
        // rejected at once.
        const script = scriptOf(customer.username);
        if (script === 'sca_fails')
          return html(reply, sandboxScaFailedPage({ locale, action: p.abort }), 401);
        reply.hijack();
        if (script === 'consent_rejects') {
          await provider.interactionFinished(
            request.raw,
            reply.raw,
            { error: 'access_denied', error_description: M.consentRejected },
            { mergeWithLastSubmission: false },
          );
          return;
        }
        await provider.interactionFinished(
          request.raw,
          reply.raw,
          { login: { accountId: customer.uuid, amr: ['pwd'] } },
          { mergeWithLastSubmission: false },
        );
      },
    );

    scope.post<{ Params: { uid: string } }>(
      `${OAUTH_PREFIX}/interaction/:uid/confirm`,
      async (request, reply) => {
        const interaction = await details(request, reply);
        if (!interaction || interaction.prompt.name !== 'consent' || !interaction.session?.accountId) {
          return expired(request, reply);
        }
        if (!(await confirmConsent(provider, interaction, request, reply))) return expired(request, reply);
      },
    );

    scope.post<{ Params: { uid: string } }>(
      `${OAUTH_PREFIX}/interaction/:uid/abort`,
      async (request, reply) => {
        const interaction = await details(request, reply);
        if (!interaction) return expired(request, reply);
        reply.hijack();
        await provider.interactionFinished(
          request.raw,
          reply.raw,
          {
            error: 'access_denied',
            // The button of sca.fails' page says why (scripted-customers.ts).
            error_description: field(request.body, 'reason') === 'sca' ? M.scaFailedDescription : M.denied,
          },
          { mergeWithLastSubmission: false },
        );
      },
    );
  });
}
