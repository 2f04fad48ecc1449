import type { FastifyRequest } from 'fastify';
import type { Db } from '../../db/client.ts';

/**
 * The audit log (issue 27, migration 0270): every change made in the console and every
 * security-relevant action on the developer side, with who, when, what, before and after, and
 * from which address. Append-only: the table's triggers refuse updates and deletes, and no
 * module has an endpoint that tries. Other modules record through `recordAudit` only.
 *
 * Never put a secret in `before` or `after`: a client secret, a password hash, a token or a key
 * is named ('secret reset'), never copied.
 */
export interface AuditEntry {
  /** Dotted verb, e.g. 'user.blocked', 'application.secret_reset', 'membership.invited'. */
  action: string;
  /** What was acted on: 'user', 'organization', 'membership', 'application', 'article', ... */
  targetType: string;
  /** Its uuid (or alias, key): what the console links to. */
  targetId?: string | number | null;
  /** A readable name at the time (a title, an e-mail), kept even when the target goes. */
  targetLabel?: string | null;
  /** The organization it belongs to: its owners see the entry on the organization page. */
  organizationId?: number | null;
  before?: unknown;
  after?: unknown;
}

/** Who acted and from where: a request's signed-in user and address, or the system. */
export interface AuditActor {
  id: number | null;
  email: string | null;
  ip: string | null;
}

export const SYSTEM_ACTOR: AuditActor = { id: null, email: null, ip: null };

/** The signed-in user of `request` (or nobody: a failed sign-in) and its client address. */
export function actorOf(request: FastifyRequest): AuditActor {
  return { id: request.user?.id ?? null, email: request.user?.email ?? null, ip: request.ip };
}

const json = (value: unknown): string | null => (value === undefined ? null : JSON.stringify(value));

/**
 * Appends an entry. Pass the transaction that makes the change, so that the entry commits with it
 * and a rolled-back change leaves no entry.
 */
export async function recordAudit(db: Db, actor: AuditActor, entry: AuditEntry): Promise<void> {
  await db
    .insertInto('audit_log')
    .values({
      actor_id: actor.id,
      actor_email: actor.email,
      action: entry.action,
      target_type: entry.targetType,
      target_id: entry.targetId === undefined || entry.targetId === null ? null : String(entry.targetId),
      target_label: entry.targetLabel ?? null,
      organization_id: entry.organizationId ?? null,
      before: json(entry.before),
      after: json(entry.after),
      ip: actor.ip,
    })
    .execute();
}
