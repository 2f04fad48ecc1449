import { en } from '@portico/contracts/messages';
import { tokenSecuritySchema, type TokenSecurity } from '@portico/contracts/token-security';
import type { FastifyInstance } from 'fastify';
import { ClientAuthInputError, checkAuthMethod } from '../../authz-server/client-auth.ts';
import type { Db } from '../../db/client.ts';
import { HttpError, notFound } from '../../lib/errors.ts';
import { actorOf, recordAudit } from '../audit/service.ts';
import { requireApplication } from './access.ts';
import { objectBody } from './forms.ts';
import { appDb } from './tables.ts';
import { ApiErrors } from '../../jsonapi/errors.ts';

const M = en.tokenSecurity;

/**
 * Whether FAPI 2.0 may apply to every client of the application: the one check of client
 * authentication methods (authz-server/client-auth.ts `checkAuthMethod`), which the application
 * form and dynamic client registration use too. A public client (no secret) has `none`.
 */
function fapiProblem(rows: readonly { auth_method: string; secret: string | null }[]): string | null {
  if (!rows.length) return en.tokenSecurity.fapiNeedsKeyAuth;
  for (const row of rows) {
    try {
      checkAuthMethod(row.secret === null ? 'none' : row.auth_method, { fapi: true });
    } catch (err) {
      if (!(err instanceof ClientAuthInputError)) throw err;
      return en.tokenSecurity.fapiNeedsKeyAuth;
    }
  }
  return null;
}

async function clientRows(db: Db, applicationUuid: string) {
  return db.selectFrom('oauth_clients').selectAll().where('application_uuid', '=', applicationUuid).execute();
}

function view(rows: Awaited<ReturnType<typeof clientRows>>): TokenSecurity {
  return {
    dpopBoundAccessTokens: rows.some((r) => r.dpop_bound_access_tokens),
    fapi: rows.some((r) => r.fapi),
    fapiAllowed: fapiProblem(rows) === null,
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
      const problem = input.fapi ? fapiProblem(rows) : null;
      if (problem) throw new ApiErrors(422, [{ title: problem, pointer: '/fapi', code: 'fapi_client_auth' }]);
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
