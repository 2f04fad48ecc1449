import { en } from '@portico/contracts/messages';
import {
  FAPI_CLIENT_AUTH_METHODS,
  tokenSecuritySchema,
  type TokenSecurity,
} from '@portico/contracts/token-security';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client.ts';
import { HttpError, notFound } from '../../lib/errors.ts';
import { actorOf, recordAudit } from '../audit/service.ts';
import { ApiErrors } from '../organizations/resources.ts';
import { requireApplication } from './access.ts';
import { objectBody } from './forms.ts';
import { appDb } from './tables.ts';

const M = en.tokenSecurity;

/**
 * How a client authenticates at the token endpoint (`oauth_clients.auth_method`, migration 0302,
 * authz-server/client-auth.ts): a secret (`client_secret`, or none for a public client), a signed
 * JWT or mutual TLS.
 */
function authMethodOf(row: Record<string, unknown>): string {
  const method = row.auth_method;
  if (typeof method === 'string' && method && method !== 'client_secret') return method;
  return row.secret === null ? 'none' : 'client_secret_basic';
}

const fapiAllowedFor = (rows: readonly Record<string, unknown>[]): boolean =>
  rows.length > 0 &&
  rows.every((r) => (FAPI_CLIENT_AUTH_METHODS as readonly string[]).includes(authMethodOf(r)));

async function clientRows(db: Db, applicationUuid: string) {
  return db.selectFrom('oauth_clients').selectAll().where('application_uuid', '=', applicationUuid).execute();
}

function view(rows: Awaited<ReturnType<typeof clientRows>>): TokenSecurity {
  return {
    dpopBoundAccessTokens: rows.some((r) => r.dpop_bound_access_tokens),
    fapi: rows.some((r) => r.fapi),
    fapiAllowed: fapiAllowedFor(rows as unknown as Record<string, unknown>[]),
  };
}

/**
 * An application's token security (issue 28, authz-server/dpop.ts): DPoP-bound tokens and the
 * FAPI 2.0 profile, set on every client of the application at once. Viewing needs the view
 * permission, changing it the update permission, on a DEVELOPMENT application (as every edit).
 */
export async function tokenSecurityRoutes(app: FastifyInstance): Promise<void> {
  const db = app.db;

  app.get<{ Params: { id: string } }>('/api/applications/:id/token-security', async (request, reply) => {
    const { app: row } = await requireApplication(db, request.user ?? null, request.params.id, 'view');
    reply.header('Cache-Control', 'no-store');
    return { data: view(await clientRows(db, row.uuid)) };
  });

  app.put<{ Params: { id: string } }>('/api/applications/:id/token-security', async (request, reply) => {
    const { app: current } = await requireApplication(db, request.user ?? null, request.params.id, 'update');
    const parsed = tokenSecuritySchema.safeParse(objectBody(request.body));
    if (!parsed.success) {
      const fields = new Set(parsed.error.issues.map((i) => String(i.path[0] ?? '')));
      throw new ApiErrors(
        422,
        [...fields].map((f) => ({ title: M.invalidBody, ...(f ? { pointer: `/${f}` } : {}) })),
      );
    }
    const input = parsed.data;
    const answer = await db.transaction().execute(async (trx) => {
      // The status check and the change in one transaction (a go-live submit waits for the lock).
      const locked = await appDb(trx)
        .selectFrom('applications')
        .selectAll()
        .where('id', '=', current.id)
        .forUpdate()
        .executeTakeFirst();
      if (!locked) throw notFound();
      if (locked.status === 'PRODUCTION')
        throw new HttpError(403, M.productionLocked, { code: 'production_application' });
      const rows = await clientRows(trx, locked.uuid);
      const before = view(rows);
      if (input.fapi && !before.fapiAllowed)
        throw new ApiErrors(422, [{ title: M.fapiNeedsKeyAuth, pointer: '/fapi', code: 'fapi_client_auth' }]);
      await trx
        .updateTable('oauth_clients')
        .set({
          dpop_bound_access_tokens: input.dpopBoundAccessTokens,
          fapi: input.fapi,
          updated_at: new Date(),
        })
        .where('application_uuid', '=', locked.uuid)
        .execute();
      await recordAudit(trx, actorOf(request), {
        action: 'application.token_security_changed',
        targetType: 'application',
        targetId: locked.uuid,
        targetLabel: locked.title,
        organizationId: locked.organization_id,
        before: { dpopBoundAccessTokens: before.dpopBoundAccessTokens, fapi: before.fapi },
        after: input,
      });
      return view(await clientRows(trx, locked.uuid));
    });
    request.log.info({ applicationId: current.id, ...input }, 'token security changed');
    reply.header('Cache-Control', 'no-store');
    return { data: answer };
  });
}
