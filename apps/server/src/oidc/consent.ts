import type { FastifyReply, FastifyRequest } from 'fastify';
import type Provider from 'oidc-provider';
import type { Interaction } from 'oidc-provider';

/** What the provider found missing at a consent prompt (`interaction.prompt.details`). */
interface MissingConsent {
  missingOIDCScope?: string[];
  missingOIDCClaims?: string[];
  missingResourceScopes?: Record<string, string[]>;
}

/**
 * The user confirmed a consent prompt (the sandbox's /oauth and the portal's /idp): the grant, the
 * interaction's own or a new one for its account and client, gains exactly what the provider found
 * missing, and the interaction finishes with it. False, with nothing answered, when the interaction
 * has no signed-in account or its grant is gone: the caller answers that the request expired.
 */
export async function confirmConsent(
  provider: Provider,
  interaction: Interaction,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<boolean> {
  const accountId = interaction.session?.accountId;
  if (!accountId) return false;
  const missing = interaction.prompt.details as MissingConsent;
  const clientId = interaction.params.client_id;
  const grant = interaction.grantId
    ? await provider.Grant.find(interaction.grantId)
    : new provider.Grant({ accountId, clientId: typeof clientId === 'string' ? clientId : '' });
  if (!grant) return false;
  if (missing.missingOIDCScope?.length) grant.addOIDCScope(missing.missingOIDCScope.join(' '));
  if (missing.missingOIDCClaims?.length) grant.addOIDCClaims(missing.missingOIDCClaims);
  for (const [indicator, scopes] of Object.entries(missing.missingResourceScopes ?? {}))
    grant.addResourceScope(indicator, scopes.join(' '));
  const grantId = await grant.save();
  reply.hijack();
  await provider.interactionFinished(
    request.raw,
    reply.raw,
    { consent: interaction.grantId ? {} : { grantId } },
    { mergeWithLastSubmission: true },
  );
  return true;
}
