import type { Application, GrantType, Subscription } from '@portico/contracts/applications';
import { DEFAULT_LOCALE, type Locale } from '@portico/contracts/locales';
import type { Db } from '../../db/client.ts';
import type { SecretBox } from '../../lib/secret-box.ts';
import type { ClientAuthentication } from '../../authz-server/client-auth.ts';
import { clientAuthFromRow, clientAuthOfClients } from './client-auth-fields.ts';
import { catalogTitles } from '../catalog/service.ts';
import { allowed, rightsOf } from './access.ts';
import { appDb, type ApplicationRow, type Environment, type GoLiveRequestRow } from './tables.ts';
import type { OrgAccess } from '../organizations/service.ts';
import type { ResourceObject } from '../../jsonapi/document.ts';

/**
 * Everything a response needs about some applications, loaded in a few queries: clients (and
 * secrets for callers who may see them), subscribed products with their documentations, the
 * latest go-live request and the creator. The products' and documentations' titles are in the
 * reader's language (`langcode`, decision 063; the default language's where no translation gives
 * one), in one more query; everything else (ids, aliases, scopes, the order) is the same.
 */
export interface ClientView {
  clientId: string;
  environment: Environment;
  grantTypes: string[];
  redirectUris: string[];
  postLogoutRedirectUris: string[];
  /** Null when the caller may not see it, or it was deleted. */
  secret: string | null;
  secretDeleted: boolean;
  /** How the client authenticates (issue 28, authz-server/client-auth.ts). */
  auth: ClientAuthentication;
  created: Date;
  changed: Date;
}

export interface ProductView {
  id: number;
  uuid: string;
  title: string;
  alias: string;
  version: string | null;
  deprecated: boolean;
  commercial: boolean;
  weight: number;
  scope: string;
  scopeProduction: string;
  psd2: boolean;
  docs: { id: number; uuid: string; title: string; alias: string; version: string | null }[];
}

export interface ApplicationView {
  app: ApplicationRow;
  access: OrgAccess;
  clients: ClientView[];
  products: ProductView[];
  goLive: GoLiveRequestRow | null;
  creatorUuid: string | null;
}

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

export async function loadViews(
  db: Db,
  box: SecretBox,
  apps: ApplicationRow[],
  accessOf: (app: ApplicationRow) => OrgAccess,
  langcode: Locale = DEFAULT_LOCALE,
): Promise<ApplicationView[]> {
  if (!apps.length) return [];
  const adb = appDb(db);
  const ids = apps.map((a) => a.id);
  const uuids = apps.map((a) => a.uuid);
  const [clients, subs, requests, creators] = await Promise.all([
    db
      .selectFrom('oauth_clients')
      .selectAll()
      .where('application_uuid', 'in', uuids)
      .orderBy('environment')
      .execute(),
    adb
      .selectFrom('subscriptions as s')
      .innerJoin('api_products as p', 'p.id', 's.product_id')
      .select([
        's.application_id',
        'p.id',
        'p.uuid',
        'p.title',
        'p.alias',
        'p.version',
        'p.deprecated',
        'p.commercial',
        'p.weight',
        'p.scope',
        'p.scope_production',
        'p.psd2_certificate_required',
      ])
      .where('s.application_id', 'in', ids)
      .orderBy('p.weight')
      .orderBy('p.title')
      .orderBy('p.id')
      .execute(),
    adb
      .selectFrom('go_live_requests')
      .selectAll()
      .where('application_id', 'in', ids)
      .orderBy('created', 'desc')
      .orderBy('id', 'desc')
      .execute(),
    db
      .selectFrom('users')
      .select(['id', 'uuid'])
      .where(
        'id',
        'in',
        apps.map((a) => a.created_by ?? -1),
      )
      .execute(),
  ]);
  const productIds = [...new Set(subs.map((s) => s.id))];
  const docs = productIds.length
    ? await adb
        .selectFrom('api_product_documentations as pd')
        .innerJoin('api_documentations as d', 'd.id', 'pd.documentation_id')
        .select(['pd.product_id', 'd.id', 'd.uuid', 'd.title', 'd.alias', 'd.version'])
        .where('pd.product_id', 'in', productIds)
        .orderBy('pd.weight')
        .orderBy('d.title')
        .execute()
    : [];
  const titles = await catalogTitles(
    db,
    { products: subs.map((s) => s.uuid), documentations: docs.map((d) => d.uuid) },
    langcode,
  );
  return apps.map((app) => {
    const access = accessOf(app);
    const mayViewSecret = allowed(access, 'viewSecret');
    return {
      app,
      access,
      clients: clients
        .filter((c) => c.application_uuid === app.uuid)
        .map((c) => {
          const deleted =
            c.environment === 'PRODUCTION' ? app.production_secret_deleted : app.development_secret_deleted;
          return {
            clientId: c.client_id,
            environment: c.environment,
            grantTypes: c.grant_types,
            redirectUris: c.redirect_uris,
            postLogoutRedirectUris: c.post_logout_redirect_uris,
            secret: mayViewSecret && !deleted && c.secret ? box.decrypt(c.secret) : null,
            secretDeleted: deleted,
            auth: clientAuthFromRow(c),
            created: new Date(c.created_at),
            changed: new Date(c.updated_at),
          };
        }),
      products: subs
        .filter((s) => s.application_id === app.id)
        .map((s) => ({
          id: s.id,
          uuid: s.uuid,
          title: titles.products.get(s.uuid) ?? s.title,
          alias: s.alias,
          version: s.version,
          deprecated: s.deprecated,
          commercial: s.commercial,
          weight: s.weight,
          scope: s.scope,
          scopeProduction: s.scope_production,
          psd2: s.psd2_certificate_required,
          docs: docs
            .filter((d) => d.product_id === s.id)
            .map((d) => ({
              id: d.id,
              uuid: d.uuid,
              title: titles.documentations.get(d.uuid) ?? d.title,
              alias: d.alias,
              version: d.version,
            })),
        })),
      goLive: requests.find((r) => r.application_id === app.id) ?? null,
      creatorUuid: creators.find((u) => u.id === app.created_by)?.uuid ?? null,
    };
  });
}

export function goLiveState(view: ApplicationView): Application['goLive'] {
  const r = view.goLive;
  return {
    status: view.app.golive_status,
    requestId: r?.uuid ?? null,
    reason: view.app.golive_reason,
    requestedAt: iso(r?.created ?? null),
    decidedAt: iso(r?.decided_at ?? null),
  };
}

export function subscriptionOf(p: ProductView): Subscription {
  return {
    uuid: p.uuid,
    nid: p.id,
    title: p.title,
    version: p.version,
    deprecated: p.deprecated,
    alias: `/${p.alias}`,
    psd2CertificateRequired: p.psd2,
    scope: p.scope,
    scopeProduction: p.scopeProduction,
    apiEndpoints: p.docs.map((d) => ({
      uuid: d.uuid,
      title: d.title,
      alias: d.alias,
      scope: p.scope,
      scope_production: p.scopeProduction,
    })),
  };
}

const clientOf = (view: ApplicationView, env: Environment) => view.clients.find((c) => c.environment === env);

/** The spec's Application (spec A 3), shared with the web app through @portico/contracts. */
export function applicationOf(view: ApplicationView): Application {
  const { app, access } = view;
  const dev = clientOf(view, 'DEVELOPMENT');
  const prod = clientOf(view, 'PRODUCTION');
  return {
    uuid: app.uuid,
    nid: app.id,
    title: app.title,
    description: app.description,
    descriptionProcessed: app.description,
    created: iso(app.created)!,
    changed: iso(app.changed)!,
    allowedGrantTypes: app.grant_types as GrantType[],
    oauthRedirectUri: app.redirect_uris,
    postLogoutRedirectUri: app.post_logout_redirect_uris,
    imageUrl: null,
    clientId: { development: dev?.clientId ?? null, production: prod?.clientId ?? null },
    clientSecret: dev?.secret ?? null,
    clientSecrets: { development: dev?.secret ?? null, production: prod?.secret ?? null },
    applicationStatus: app.status,
    goLive: goLiveState(view),
    subscriptionIds: view.products.map((p) => p.uuid),
    subscriptions: view.products.map(subscriptionOf),
    organizationId: access.org.uuid,
    organization: { uuid: access.org.uuid, id: access.org.id, title: access.org.title },
    permissions: rightsOf(access),
    clientAuthentication: clientAuthOfClients(view.clients),
  };
}

export const INCLUDES = [
  'field_image',
  'field_organization',
  'field_application_subscriptions',
  'field_application_subscriptions.field_endpoints',
  'field_credentials',
] as const;
export type Include = (typeof INCLUDES)[number];

/** `node--application` (JSON:API), with the spec's Application in meta.application. */
export function applicationResource(base: string, view: ApplicationView) {
  const { app, access } = view;
  const dev = clientOf(view, 'DEVELOPMENT');
  const prod = clientOf(view, 'PRODUCTION');
  return {
    type: 'node--application',
    id: app.uuid,
    attributes: {
      drupal_internal__nid: app.id,
      title: app.title,
      field_description: { value: app.description, format: 'basic_html', processed: app.description },
      field_allowed_grant_types: app.grant_types,
      field_oauth_redirect_uri: app.redirect_uris,
      field_postlogout_redirect_uri: app.post_logout_redirect_uris,
      field_application_status: app.status,
      field_client_id: { development: dev?.clientId ?? null, production: prod?.clientId ?? null },
      field_client_secret: dev?.secret ?? null,
      field_golive: goLiveState(view),
      field_client_authentication: clientAuthOfClients(view.clients) ?? null,
      created: iso(app.created),
      changed: iso(app.changed),
    },
    relationships: {
      uid: { data: view.creatorUuid ? { type: 'user--user', id: view.creatorUuid } : null },
      field_organization: { data: { type: 'group--organization', id: access.org.uuid } },
      field_application_subscriptions: {
        data: view.products.map((p) => ({ type: 'node--api_product', id: p.uuid })),
      },
      field_credentials: {
        data: view.clients.map((c) => ({ type: 'oauth_client--oauth_client', id: c.clientId })),
      },
      field_image: { data: null },
    },
    links: { self: { href: `${base}/jsonapi/node/application/${app.uuid}` } },
    meta: { permissions: [...access.permissions].sort(), application: applicationOf(view) },
  };
}

/** The included resources asked for with `include=`. */
export function includedOf(base: string, view: ApplicationView, include: ReadonlySet<Include>) {
  const out: ResourceObject[] = [];
  if (include.has('field_organization')) {
    const org = view.access.org;
    out.push({
      type: 'group--organization',
      id: org.uuid,
      attributes: { drupal_internal__id: org.id, label: org.title },
      links: { self: { href: `${base}/jsonapi/group/organization/${org.uuid}` } },
    });
  }
  const withProducts =
    include.has('field_application_subscriptions') ||
    include.has('field_application_subscriptions.field_endpoints');
  if (withProducts) {
    for (const p of view.products) {
      out.push({
        type: 'node--api_product',
        id: p.uuid,
        attributes: {
          drupal_internal__nid: p.id,
          title: p.title,
          path: { alias: `/${p.alias}`, langcode: 'en' },
          field_version: p.version,
          field_deprecated: p.deprecated,
          field_commercial_product: p.commercial,
          field_weight: p.weight,
          field_scope: p.scope,
          field_scope_production: p.scopeProduction,
          field_psd2_certificate_required: p.psd2,
        },
        relationships: {
          field_endpoints: { data: p.docs.map((d) => ({ type: 'node--api_documentation', id: d.uuid })) },
        },
        links: { self: { href: `${base}/jsonapi/node/api_product/${p.uuid}` } },
      });
    }
  }
  if (include.has('field_application_subscriptions.field_endpoints')) {
    const seen = new Set<string>();
    for (const d of view.products.flatMap((p) => p.docs)) {
      if (seen.has(d.uuid)) continue;
      seen.add(d.uuid);
      out.push({
        type: 'node--api_documentation',
        id: d.uuid,
        attributes: {
          drupal_internal__nid: d.id,
          title: d.title,
          alias: d.alias,
          path: { alias: `/${d.alias}`, langcode: 'en' },
          field_version: d.version,
        },
        links: { self: { href: `${base}/jsonapi/node/api_documentation/${d.uuid}` } },
      });
    }
  }
  if (include.has('field_credentials')) {
    for (const c of view.clients) {
      out.push({
        type: 'oauth_client--oauth_client',
        id: c.clientId,
        attributes: {
          client_id: c.clientId,
          environment: c.environment,
          grant_types: c.grantTypes,
          redirect_uris: c.redirectUris,
          post_logout_redirect_uris: c.postLogoutRedirectUris,
          client_secret: c.secret,
          secret_deleted: c.secretDeleted,
          created: iso(c.created),
          changed: iso(c.changed),
        },
      });
    }
  }
  return out;
}
