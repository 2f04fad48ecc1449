import type { FastifyReply } from 'fastify';
import type { Client, KoaContextWithOIDC } from 'oidc-provider';
import type Provider from 'oidc-provider';
import { withFormTargets } from '../plugins/security.ts';

/**
 * Where a form on a page of our issuers (/idp, /oauth) may end. Its POST is answered with
 * redirects that end at the client (the authorization response at its redirect_uri, a logout at its
 * post_logout_redirect_uri), and CSP form-action governs those redirects too (Chromium refuses
 * them otherwise). So each such page adds to form-action exactly the targets of its own request,
 * and only those the client registers: every other origin stays refused.
 */
export function redirectTargets(client: Client | undefined, params: Record<string, unknown>): string[] {
  if (!client) return [];
  const targets: string[] = [];
  const { redirect_uri: redirectUri, post_logout_redirect_uri: postLogout } = params;
  if (typeof redirectUri === 'string' && client.redirectUriAllowed(redirectUri)) targets.push(redirectUri);
  if (typeof postLogout === 'string' && client.postLogoutRedirectUriAllowed(postLogout))
    targets.push(postLogout);
  return targets;
}

/** Adds the redirect targets `uris` to the form-action of the reply's CSP. */
function allowOn(reply: FastifyReply, uris: readonly string[]): void {
  const policy = reply.getHeader('content-security-policy');
  if (typeof policy === 'string' && uris.length)
    reply.header('Content-Security-Policy', withFormTargets(policy, uris));
}

/**
 * For an interaction page (sign-in, sign-up, consent): its forms may end at the redirect URI the
 * interaction's authorization request names, when its client (still) registers it.
 */
export async function allowInteractionRedirect(
  provider: Provider,
  interaction: { params: Record<string, unknown> },
  reply: FastifyReply,
): Promise<void> {
  const clientId = interaction.params.client_id;
  if (typeof clientId !== 'string') return;
  const client = await provider.Client.find(clientId);
  allowOn(reply, redirectTargets(client, { redirect_uri: interaction.params.redirect_uri }));
}

/**
 * For the provider's own pages (the logout confirmation, the form_post answer): after the
 * provider has answered, the request's validated targets join the answer's form-action.
 */
export function allowProviderRedirects(ctx: KoaContextWithOIDC): void {
  const oidc = ctx.oidc as KoaContextWithOIDC['oidc'] | undefined;
  if (!oidc?.client || !ctx.response.is('html')) return;
  const uris = redirectTargets(oidc.client, (oidc.params ?? {}) as Record<string, unknown>);
  const policy = ctx.response.get('content-security-policy');
  if (typeof policy === 'string' && policy && uris.length)
    ctx.set('Content-Security-Policy', withFormTargets(policy, uris));
}
