import { CLIENT_AUTH_ATTRIBUTES } from '@portico/contracts/client-auth';
import { subscriptionRequestSchema } from '@portico/contracts/applications';
import type { Locale } from '@portico/contracts/locales';
import { en } from '@portico/contracts/messages';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../../db/client.ts';
import { HttpError, badRequest, notFound } from '../../lib/errors.ts';
import { readerLocale } from '../../lib/translations.ts';
import { requireUser } from '../../plugins/session.ts';
import { actorOf, recordAudit } from '../audit/service.ts';
import { assertAllowed, allowed, requireApplication } from './access.ts';
import { assertRolesAllow } from './psd2-roles.ts';
import {
  ClientAuthInputError,
  checkAuthMethod,
  clientAuthAudit,
  fromRow as clientAuthFromRow,
  sameClientAuthentication,
  setApplicationClientAuthentication,
  type ClientAuthentication,
} from '../../authz-server/client-auth.ts';
import { clientAuthFromDocument } from './client-auth-fields.ts';
import {
  DOCUMENT_POINTERS,
  PAYLOAD_POINTERS,
  issuesToErrors,
  objectBody,
  parseApplicationDocument,
  parseApplicationPayload,
} from './forms.ts';
import {
  assertSubscribable,
  checkClientRules,
  createApplication,
  deleteApplication,
  replaceSubscriptions,
  resolveProducts,
  subscribe,
  subscribedProductIds,
  unsubscribe,
  updateApplication,
  type ApplicationFields,
} from './service.ts';
import { appDb, type ApplicationRow } from './tables.ts';
import {
  INCLUDES,
  applicationOf,
  applicationResource,
  includedOf,
  loadViews,
  type Include,
} from './views.ts';
import { loadOrgAccess, permissionsFor, effectiveRoles, type OrgAccess } from '../organizations/service.ts';
import {
  pageLinks,
  parseInclude,
  parsePage,
  rejectUnknown,
  single,
  type Query,
} from '../../jsonapi/legacy-query.ts';
import { ApiErrors } from '../../jsonapi/errors.ts';
import { baseUrl, sendDocument } from '../../jsonapi/document.ts';

const M = en.applications;

/**
 * The application calls of spec A 7: create (two forms), read, list, edit, delete, subscribe and
 * unsubscribe. Routes check the caller, parse, and hand a transaction to service.ts.
 */
export async function applicationRoutes(app: FastifyInstance): Promise<void> {
  const db = app.db;

  async function viewOf(row: ApplicationRow, access: OrgAccess, langcode?: Locale) {
    const [view] = await loadViews(db, app.secretBox, [row], () => access, langcode);
    return view!;
  }

  /** Forgets the gateway's cached scopes of the application's clients (after subscription changes). */
  async function clearScopes(appUuid: string, clientIds?: string[]) {
    const ids =
      clientIds ??
      (
        await db
          .selectFrom('oauth_clients')
          .select('client_id')
          .where('application_uuid', '=', appUuid)
          .execute()
      ).map((r) => r.client_id);
    for (const id of ids) app.oauthClients.clearAccessCache(id);
  }

  /**
   * Re-reads the application under a row lock and refuses a production one: the status check and
   * the change it guards happen in one transaction (a go-live submit waits for the lock).
   */
  async function lockDevelopment(trx: Db, id: number, message: string): Promise<ApplicationRow> {
    const row = await appDb(trx)
      .selectFrom('applications')
      .selectAll()
      .where('id', '=', id)
      .forUpdate()
      .executeTakeFirst();
    if (!row) throw notFound();
    if (row.status === 'PRODUCTION') throw new HttpError(403, message, { code: 'production_application' });
    return row;
  }

  /** Audit entries for subscriptions added and removed, in the transaction that changed them. */
  async function auditSubscriptions(
    trx: Db,
    request: FastifyRequest,
    row: ApplicationRow,
    added: readonly number[],
    removed: readonly number[],
  ) {
    if (!added.length && !removed.length) return;
    const products = await appDb(trx)
      .selectFrom('api_products')
      .select(['id', 'uuid', 'title'])
      .where('id', 'in', [...added, ...removed])
      .execute();
    for (const [action, ids] of [
      ['subscription.added', added],
      ['subscription.removed', removed],
    ] as const) {
      for (const id of ids) {
        const p = products.find((x) => x.id === id);
        const product = { id: p?.uuid ?? null, title: p?.title ?? null };
        await recordAudit(trx, actorOf(request), {
          action,
          targetType: 'application',
          targetId: row.uuid,
          targetLabel: row.title,
          organizationId: row.organization_id,
          ...(action === 'subscription.added' ? { after: { product } } : { before: { product } }),
        });
      }
    }
  }

  /** Products to subscribe to: known, and (for ones not yet subscribed) offered for subscription. */
  async function productIdsFor(
    refs: string[],
    current: number[],
    pointer: string,
    application?: ApplicationRow,
  ): Promise<number[]> {
    const products = await resolveProducts(db, refs);
    for (const p of products) if (!current.includes(p.id)) assertSubscribable(p, pointer);
    // The PSD2 roles of the application's certificate (issue 28).
    if (application)
      await assertRolesAllow(
        db,
        application,
        products.filter((p) => !current.includes(p.id)),
        pointer,
      );
    return [...new Set(products.map((p) => p.id))];
  }

  async function create(
    request: FastifyRequest,
    access: OrgAccess,
    fields: ApplicationFields,
    productIds: number[],
    clientAuth?: ClientAuthentication,
  ): Promise<ApplicationRow> {
    const row = await db.transaction().execute(async (trx) => {
      const created = await createApplication(trx, app.secretBox, {
        ...fields,
        organizationId: access.org.id,
        createdBy: access.user.id,
        productIds,
      });
      if (clientAuth) await setApplicationClientAuthentication(trx, created.uuid, clientAuth);
      await recordAudit(trx, actorOf(request), {
        action: 'application.created',
        targetType: 'application',
        targetId: created.uuid,
        targetLabel: created.title,
        organizationId: created.organization_id,
        after: {
          title: created.title,
          grantTypes: created.grant_types,
          redirectUris: created.redirect_uris,
          postLogoutRedirectUris: created.post_logout_redirect_uris,
        },
      });
      await auditSubscriptions(trx, request, created, productIds, []);
      return created;
    });
    app.log.info({ applicationId: row.id, organizationId: access.org.id }, 'application created');
    return row;
  }

  app.post<{ Querystring: Query }>('/phpsdk/organization/apps/create', async (request, reply) => {
    const user = requireUser(request);
    rejectUnknown(request.query, (k) => k === 'ORGANIZATION' || k === 'organization');
    const orgRef = single(request.query, 'ORGANIZATION') ?? single(request.query, 'organization');
    if (!orgRef) throw badRequest(M.organizationRequired, 'ORGANIZATION');
    const access = await loadOrgAccess(db, user, orgRef);
    assertAllowed(access, 'create');
    const parsed = parseApplicationDocument(request.body);
    checkClientRules(parsed.fields, DOCUMENT_POINTERS);
    const clientAuth = clientAuthFromDocument(request.body, app.config.nodeEnv);
    const productIds = parsed.productRefs
      ? await productIdsFor(parsed.productRefs, [], '/data/relationships/field_application_subscriptions')
      : [];
    const row = await create(request, access, parsed.fields, productIds, clientAuth);
    const view = await viewOf(row, access);
    return sendDocument(reply, { data: applicationResource(baseUrl(request), view) }, 201);
  });

  app.get<{ Params: { id: string }; Querystring: Query }>(
    '/jsonapi/node/application/:id',
    async (request, reply) => {
      const { app: row, access } = await requireApplication(db, request.user, request.params.id, 'view');
      rejectUnknown(request.query, (k) => k === 'include' || k === 'organization' || k === 'langcode');
      // The products' and documentations' titles in the reader's language (decision 063).
      const langcode = readerLocale(single(request.query, 'langcode'));
      const orgRef = single(request.query, 'organization');
      if (orgRef && orgRef.toLowerCase() !== access.org.uuid && orgRef !== String(access.org.id))
        throw notFound();
      const include = parseInclude<Include>(request.query, INCLUDES);
      const view = await viewOf(row, access, langcode);
      const base = baseUrl(request);
      reply.header('Cache-Control', 'private, no-store');
      return sendDocument(reply, {
        data: applicationResource(base, view),
        ...(include.size ? { included: includedOf(base, view, include) } : {}),
      });
    },
  );

  /** The caller's applications: of one organization, or of every organization they may view. */
  app.get<{ Querystring: Query }>('/phpsdk/organization/apps', async (request, reply) => {
    const user = requireUser(request);
    rejectUnknown(request.query, (k) =>
      ['organization', 'page[limit]', 'page[offset]', 'langcode'].includes(k),
    );
    // The products' and documentations' titles in the reader's language (decision 063).
    const langcode = readerLocale(single(request.query, 'langcode'));
    const page = parsePage(request.query);
    const orgRef = single(request.query, 'organization');
    const accessById = new Map<number, OrgAccess>();
    if (orgRef) {
      const access = await loadOrgAccess(db, user, orgRef);
      assertAllowed(access, 'view');
      accessById.set(access.org.id, access);
    } else {
      const rows = await db
        .selectFrom('memberships as m')
        .innerJoin('organizations as o', 'o.id', 'm.organization_id')
        .selectAll('o')
        .select([
          'm.id as m_id',
          'm.uuid as m_uuid',
          'm.roles as m_roles',
          'm.email as m_email',
          'm.invited_by as m_invited_by',
          'm.resent_at as m_resent_at',
          'm.created_at as m_created_at',
          'm.changed_at as m_changed_at',
        ])
        .where('m.user_id', '=', user.id)
        .where('m.status', '=', 'active')
        .execute();
      for (const r of rows) {
        const isCreator = r.creator_id === user.id;
        const access: OrgAccess = {
          user,
          org: {
            id: r.id,
            uuid: r.uuid,
            title: r.title,
            description: r.description,
            creator_id: r.creator_id,
            image_file_id: r.image_file_id,
            created_at: r.created_at,
            updated_at: r.updated_at,
          },
          membership: {
            id: r.m_id,
            uuid: r.m_uuid,
            organization_id: r.id,
            user_id: user.id,
            email: r.m_email,
            status: 'active',
            roles: r.m_roles,
            invited_by: r.m_invited_by,
            resent_at: r.m_resent_at,
            created_at: r.m_created_at,
            changed_at: r.m_changed_at,
          },
          isCreator,
          roles: effectiveRoles(r.m_roles, isCreator),
          permissions: permissionsFor(r.m_roles, isCreator),
        };
        if (allowed(access, 'view')) accessById.set(r.id, access);
      }
    }
    const orgIds = [...accessById.keys()];
    const base = appDb(db)
      .selectFrom('applications')
      .where('organization_id', 'in', orgIds.length ? orgIds : [-1]);
    const { count } = await base
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .executeTakeFirstOrThrow();
    const rows = await base
      .selectAll()
      .orderBy('created', 'desc')
      .orderBy('id', 'desc')
      .limit(page.limit)
      .offset(page.offset)
      .execute();
    const views = await loadViews(
      db,
      app.secretBox,
      rows,
      (a) => accessById.get(a.organization_id)!,
      langcode,
    );
    reply.header('Cache-Control', 'private, no-store');
    return reply.send({
      data: views.map(applicationOf),
      meta: { count: Number(count) },
      links: pageLinks(request, page, Number(count)),
    });
  });

  app.patch<{ Params: { id: string } }>(
    '/jsonapi/node/application/:id/edit_app_custom',
    async (request, reply) => {
      const { app: current, access } = await requireApplication(
        db,
        request.user,
        request.params.id,
        'update',
      );
      if (current.status === 'PRODUCTION')
        throw new HttpError(403, M.cannotEdit, { code: 'production_application' });
      const parsed = parseApplicationDocument(request.body, current);
      if (
        parsed.id !== undefined &&
        parsed.id.toLowerCase() !== current.uuid &&
        parsed.id !== String(current.id)
      )
        throw new HttpError(409, en.api.idMismatch);
      checkClientRules(parsed.fields, DOCUMENT_POINTERS);
      const clientAuth = clientAuthFromDocument(request.body, app.config.nodeEnv);
      const productIds = parsed.productRefs
        ? await productIdsFor(
            parsed.productRefs,
            await subscribedProductIds(db, current.id),
            '/data/relationships/field_application_subscriptions',
            current,
          )
        : undefined;
      const { row, changed } = await db.transaction().execute(async (trx) => {
        const locked = await lockDevelopment(trx, current.id, M.cannotEdit);
        const clientRows = await trx
          .selectFrom('oauth_clients')
          .select(['client_id', 'environment', 'fapi', 'auth_method', 'jwks', 'jwks_uri', 'tls_subject_dn'])
          .where('application_uuid', '=', locked.uuid)
          .execute();
        // A FAPI 2.0 application keeps a signed JWT or mutual TLS: the one check of every method
        // (client-auth.ts), as token security and dynamic registration use it.
        if (clientAuth) {
          try {
            checkAuthMethod(clientAuth.method, { fapi: clientRows.some((r) => r.fapi) });
          } catch (err) {
            if (!(err instanceof ClientAuthInputError)) throw err;
            throw new ApiErrors(
              422,
              err.problems.map((p) => ({
                title: p.title,
                pointer: `/data/attributes/${CLIENT_AUTH_ATTRIBUTES.method}`,
              })),
            );
          }
        }
        const updated = await updateApplication(trx, app.secretBox, locked, parsed.fields);
        if (clientAuth) {
          await setApplicationClientAuthentication(trx, updated.uuid, clientAuth);
          const dev = clientRows.find((r) => r.environment === 'DEVELOPMENT') ?? clientRows[0];
          const before = dev ? clientAuthFromRow(dev) : undefined;
          if (before && !sameClientAuthentication(before, clientAuth))
            await recordAudit(trx, actorOf(request), {
              action: 'application.client_authentication_changed',
              targetType: 'application',
              targetId: updated.uuid,
              targetLabel: updated.title,
              organizationId: updated.organization_id,
              before: clientAuthAudit(before),
              after: clientAuthAudit(clientAuth),
            });
        }
        const had = productIds ? await subscribedProductIds(trx, locked.id) : [];
        const subsChanged = productIds ? await replaceSubscriptions(trx, updated, productIds) : false;
        if (productIds)
          await auditSubscriptions(
            trx,
            request,
            updated,
            productIds.filter((id) => !had.includes(id)),
            had.filter((id) => !productIds.includes(id)),
          );
        return { row: updated, changed: subsChanged };
      });
      await clearScopes(row.uuid);
      if (changed) request.log.info({ applicationId: row.id }, 'application subscriptions replaced');
      const view = await viewOf(row, access);
      return sendDocument(reply, { data: applicationResource(baseUrl(request), view) });
    },
  );

  app.delete<{ Params: { id: string } }>('/jsonapi/node/application/:id', async (request, reply) => {
    const { app: current } = await requireApplication(db, request.user, request.params.id, 'delete');
    if (current.status === 'PRODUCTION')
      throw new HttpError(403, M.cannotDelete, { code: 'production_application' });
    const clientIds = await db.transaction().execute(async (trx) => {
      const locked = await lockDevelopment(trx, current.id, M.cannotDelete);
      const removed = await deleteApplication(trx, app.secretBox, locked);
      await recordAudit(trx, actorOf(request), {
        action: 'application.deleted',
        targetType: 'application',
        targetId: locked.uuid,
        targetLabel: locked.title,
        organizationId: locked.organization_id,
        before: { title: locked.title, status: locked.status, clientIds: removed },
      });
      return removed;
    });
    await clearScopes(current.uuid, clientIds);
    request.log.info({ applicationId: current.id }, 'application deleted');
    return reply.status(204).send();
  });

  /** Subscribe / unsubscribe (spec B 7), or create with an application payload (spec A 7). */
  app.post('/api/application', async (request: FastifyRequest, reply: FastifyReply) => {
    const user = requireUser(request);
    const body = objectBody(request.body);
    if (body.type === 'subscribe' || body.type === 'unsubscribe') {
      const parsed = subscriptionRequestSchema.safeParse(body, { reportInput: true });
      if (!parsed.success) throw new ApiErrors(422, issuesToErrors(parsed.error.issues, ''));
      const { type, application, product: productRef } = parsed.data;
      // The answer names the products in the page's language, as its reads do (loadViews).
      const langcode = readerLocale(single(request.query as Query, 'langcode'));
      const { app: current, access } = await requireApplication(db, user, application, 'update');
      const message = type === 'unsubscribe' ? M.cannotUnsubscribe : M.cannotEdit;
      if (current.status === 'PRODUCTION')
        throw new HttpError(403, message, { code: 'production_application' });
      const [product] = await resolveProducts(db, [productRef]);
      const row = await db.transaction().execute(async (trx) => {
        const locked = await lockDevelopment(trx, current.id, message);
        if (type === 'subscribe') {
          const already = (await subscribedProductIds(trx, locked.id)).includes(product!.id);
          if (!already) assertSubscribable(product!, '/product');
          if (!already) await assertRolesAllow(trx, locked, [product!], '/product');
          if (await subscribe(trx, locked, product!))
            await auditSubscriptions(trx, request, locked, [product!.id], []);
        } else if (await unsubscribe(trx, locked, product!)) {
          await auditSubscriptions(trx, request, locked, [], [product!.id]);
        }
        return locked;
      });
      await clearScopes(row.uuid);
      request.log.info({ applicationId: row.id, productId: product!.id, type }, 'subscription changed');
      const view = await viewOf(row, access, langcode);
      return reply.status(200).send({ data: applicationOf(view) });
    }
    if (body.type !== undefined && body.type !== 'create' && body.type !== 'application')
      throw new ApiErrors(422, [{ title: 'type must be subscribe or unsubscribe.', pointer: '/type' }]);
    const { type: _type, ...payload } = body;
    if (payload.organization === undefined || payload.organization === '')
      throw new ApiErrors(422, [{ title: M.organizationRequired, pointer: '/organization' }]);
    const access = await loadOrgAccess(db, user, String(payload.organization));
    assertAllowed(access, 'create');
    const { fields } = parseApplicationPayload(payload);
    checkClientRules(fields, PAYLOAD_POINTERS);
    const row = await create(request, access, fields, []);
    const view = await viewOf(row, access);
    return reply.status(200).send({ data: applicationOf(view) });
  });
}
