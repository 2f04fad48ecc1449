import { createHash, randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { en } from '@portico/contracts/messages';
import type { Db } from '../../db/client.ts';
import { HttpError } from '../../lib/errors.ts';
import { mailLocale, texts, siteTitle } from '../../lib/i18n.ts';
import { revokeAccount } from '../../oidc/adapter.ts';
import type { SessionUser } from '../../plugins/session.ts';
import { addressProven } from './address-proven.ts';
import { IDP_PREFIX } from './idp-provider.ts';
import { usersRepo, type UserRow } from './users-repo.ts';

export { onAddressProven, type AddressProvenListener, type ProvenAddress } from './address-proven.ts';
// The console dashboard's figures of this domain (issue 27).
export { signUpsPerDay } from './dashboard-figures.ts';
// Assistants acting for a user at /mcp (the MCP module; decision 056).
export { AGENT_SCOPE, agentResource, type AgentGrant } from './agent-access.ts';

/**
 * What other domains may ask of identity: whether an account's address is proven, to hear when it
 * becomes proven (`onAddressProven`, address-proven.ts), and ending every session of an account. Also the e-mail verification links (issue 10): sign-up proves nothing
 * about the address until the link sent to it is opened.
 */

const M = en.identity;
export const VERIFICATION_TTL_MS = 24 * 3600_000;

const sha256 = (value: string) => createHash('sha256').update(value).digest('base64url');

/** The caller's address when it is proven; null otherwise (nothing addressed to it may be shown). */
export function verifiedAddress(user: SessionUser): string | null {
  return user.emailVerified ? user.email : null;
}

/** 403 unless the caller's address is proven: for acting on what was sent to that address. */
export function requireVerifiedEmail(user: SessionUser): void {
  if (!user.emailVerified) throw new HttpError(403, M.verifyEmailFirst, { code: 'email_unverified' });
}

/**
 * Ends every session of an account on both sides: the portal's sessions, and at the built-in
 * identity provider its browser sessions (whose cookie would sign it in again silently), grants,
 * codes and tokens. The clients it signed in from are forgotten too: after a password reset an
 * intruder's device must not keep the trusted status. For password reset and change, blocking and
 * deletion.
 */
export async function endEverySession(db: Db, user: { id: number; uuid: string }): Promise<void> {
  await db.deleteFrom('sessions').where('user_id', '=', user.id).execute();
  await db.deleteFrom('trusted_sign_ins').where('user_id', '=', user.id).execute();
  await revokeAccount(db, 'idp', user.uuid);
}

/** Sends a single-use link, valid for 24 hours, that proves `email` belongs to the account. */
export async function sendVerificationMail(
  app: FastifyInstance,
  user: { id: number; email: string; name: string; preferred_langcode?: string | null },
): Promise<void> {
  const token = randomBytes(32).toString('base64url');
  await app.db
    .insertInto('email_verifications')
    .values({
      token_hash: sha256(token),
      user_id: user.id,
      email: user.email,
      expires_at: new Date(Date.now() + VERIFICATION_TTL_MS),
      used_at: null,
    })
    .execute();
  const link = `${app.config.publicUrl}${IDP_PREFIX}/verify/${token}`;
  // In the account's language, else English.
  const mail = texts(mailLocale(user.preferred_langcode), 'emails', 'identity');
  await app.mailer.send({
    to: user.email,
    subject: mail('verifyMailSubject', { site: siteTitle(mail.locale) }),
    text: mail('verifyMailText', { name: user.name, email: user.email, link }),
  });
}

/** The address an unused, unexpired link would prove, or undefined. */
export async function pendingVerification(db: Db, token: string): Promise<{ email: string } | undefined> {
  return db
    .selectFrom('email_verifications')
    .select('email')
    .where('token_hash', '=', sha256(token))
    .where('used_at', 'is', null)
    .where('expires_at', '>', new Date())
    .executeTakeFirst();
}

/**
 * Uses a link: marks the account verified when it still holds the address the link was sent to,
 * and tells the other domains in the same transaction (`onAddressProven`). Returns false for an unknown, used or expired link (and uses it up either way).
 */
export async function verifyEmail(db: Db, token: string): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const used = await trx
      .updateTable('email_verifications')
      .set({ used_at: new Date() })
      .where('token_hash', '=', sha256(token))
      .where('used_at', 'is', null)
      .where('expires_at', '>', new Date())
      .returning(['user_id', 'email'])
      .executeTakeFirst();
    if (!used) return false;
    const updated = await trx
      .updateTable('users')
      .set({ email_verified: true, updated_at: new Date() })
      .where('id', '=', used.user_id)
      .where((eb) => eb(eb.fn('lower', ['email']), '=', used.email.toLowerCase()))
      .returning(['id', 'email'])
      .executeTakeFirst();
    if (!updated) return false;
    await addressProven(trx, updated);
    return true;
  });
}

/** The Quick Start stories an account completed (users.completed_stories), in the order saved. */
export async function completedStories(db: Db, userId: number): Promise<string[]> {
  const row = await db
    .selectFrom('users')
    .select('completed_stories')
    .where('id', '=', userId)
    .executeTakeFirst();
  return row?.completed_stories ?? [];
}

/** The account with this e-mail address, if any (content importers name users by address). */
export function userByEmail(db: Db, email: string): Promise<UserRow | undefined> {
  return usersRepo(db).findByEmail(email);
}
