import { errors, type default as Provider, type KoaContextWithOIDC } from 'oidc-provider';
import { en } from '@portico/contracts/messages';
import type { Db } from '../db/client.ts';
import { sandboxUsersRepo } from './sandbox-users.ts';

/**
 * Sandbox customers with scripted outcomes (issue 28), as bank sandboxes have them: each answers
 * as a bank would in one situation, so that an application can test its error handling. They are
 * ordinary sandbox customers (content/sandbox-users.yaml); their username picks the script.
 *
 * - `sca.fails`: the password is right, then strong customer authentication fails: a bank-like
 *   page, and its button ends the authorization with `access_denied` (scaFailedDescription).
 * - `consent.rejects`: right after the sign-in the customer rejects the consent: `access_denied`
 *   (consentRejected), no consent page.
 * - `consent.revoked`: signs in and consents as usual; the application gets its tokens. The
 *   customer revokes the consent before the first refresh: the refresh is refused `invalid_grant`
 *   (consentRevoked), the grant and its refresh tokens are gone, and the sandbox answers the
 *   grant's access tokens 401 `invalid_token` (consentRevokedToken).
 */
export type CustomerScript = 'sca_fails' | 'consent_rejects' | 'consent_revoked';

export const SCRIPTED_CUSTOMERS: Readonly<Record<string, CustomerScript>> = {
  'sca.fails': 'sca_fails',
  'consent.rejects': 'consent_rejects',
  'consent.revoked': 'consent_revoked',
};

const M = en.sandboxAuth;

export const scriptOf = (username: string): CustomerScript | undefined =>
  Object.hasOwn(SCRIPTED_CUSTOMERS, username.toLowerCase())
    ? SCRIPTED_CUSTOMERS[username.toLowerCase()]
    : undefined;

/**
 * Called by the provider's findAccount: on a refresh of `consent.revoked`'s tokens, revokes the
 * grant (with every token stored under it) and refuses the refresh with `invalid_grant`.
 */
export async function refuseRevokedConsent(
  ctx: KoaContextWithOIDC,
  customer: { username: string },
  token: unknown,
): Promise<void> {
  if (scriptOf(customer.username) !== 'consent_revoked') return;
  const source = token as { kind?: string; grantId?: string } | undefined;
  if (ctx.oidc.route !== 'token' || source?.kind !== 'RefreshToken') return;
  if (source.grantId) {
    const grant = await ctx.oidc.provider.Grant.find(source.grantId);
    await grant?.destroy();
    await ctx.oidc.provider.RefreshToken.adapter.revokeByGrantId(source.grantId);
  }
  const refusal = new errors.InvalidGrant();
  // InvalidGrant's description is fixed ('grant request is invalid'): ours says why.
  refusal.error_description = M.consentRevoked;
  throw refusal;
}

/** The `grant_id` claim of a customer's access token (none for client_credentials). */
export function grantClaim(token: object): { grant_id: string } | undefined {
  const grantId = 'grantId' in token && typeof token.grantId === 'string' ? token.grantId : undefined;
  return grantId ? { grant_id: grantId } : undefined;
}

/**
 * For the sandbox gateway: why an access token of `consent.revoked` is refused (the grant it
 * names is gone), or null. Other customers' tokens are never looked up.
 */
export function consentRevocationCheck(db: Db, provider: Provider) {
  let revokedCustomer: string | undefined;
  return async (token: { subject: string | undefined; grantId: string | undefined }) => {
    if (!token.subject) return null;
    revokedCustomer ??= (await sandboxUsersRepo(db).findByUsername('consent.revoked'))?.uuid;
    if (token.subject !== revokedCustomer) return null;
    const grant = token.grantId ? await provider.Grant.find(token.grantId) : undefined;
    return grant ? null : M.consentRevokedToken;
  };
}
