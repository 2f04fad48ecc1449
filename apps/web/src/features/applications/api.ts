import type {
  Application,
  ApplicationForm,
  CertificateValidation,
  DailyEndpointAggregate,
  EndpointAggregate,
  GoLiveForm,
} from '@portico/contracts/applications';
import { GO_LIVE_FIELDS } from '@portico/contracts/applications';
import { APPLICATIONS_PAGE_SIZE } from '@portico/contracts/constants';
import { apiRequest } from '../../lib/api-client';
import { langOf, readerLanguage, type TranslationMarker } from '../../components/content/translation';
import { applicationAttributes } from '../../lib/applications-api';

/**
 * The calls of the application pages (spec A 7), shaped as the applications module's README
 * documents them. Pages use the `Application` of @portico/contracts/applications everywhere: the
 * JSON:API resource carries it in its own `meta.application`.
 */

interface ApplicationDocument {
  data: { id: string; meta: { application: Application } };
}

/** Includes the spec names for the single application (image, subscriptions with their APIs). */
const APPLICATION_INCLUDE =
  'field_image,field_application_subscriptions,field_application_subscriptions.field_endpoints';

/** One application, its products' titles in the page's language (decision 063). */
export async function fetchApplication(id: string, organization: string | null): Promise<Application> {
  const doc = await apiRequest<ApplicationDocument>(`/jsonapi/node/application/${encodeURIComponent(id)}`, {
    query: { include: APPLICATION_INCLUDE, organization, ...readerLanguage() },
  });
  return doc.data.meta.application;
}

// Shared with the terminal and the product pages (one place per call).
export { changeSubscription, createApplication } from '../../lib/applications-api';

export async function updateApplication(app: Application, form: ApplicationForm): Promise<Application> {
  const doc = await apiRequest<ApplicationDocument>(
    `/jsonapi/node/application/${encodeURIComponent(app.uuid)}/edit_app_custom`,
    {
      method: 'PATCH',
      body: {
        data: {
          type: 'node--application',
          id: app.uuid,
          attributes: applicationAttributes(form),
          // The spec's edit call carries the subscriptions too; they are the ones the page shows.
          relationships: {
            field_application_subscriptions: {
              data: app.subscriptionIds.map((id) => ({ type: 'node--api_product', id })),
            },
          },
        },
      },
    },
  );
  return doc.data.meta.application;
}

export async function deleteApplication(uuid: string): Promise<void> {
  await apiRequest<undefined>(`/jsonapi/node/application/${encodeURIComponent(uuid)}`, { method: 'DELETE' });
}

export interface SecretReset {
  secret: string;
  clientId: string;
  environment: 'DEVELOPMENT' | 'PRODUCTION';
  message: string;
}

export function resetSecret(application: string): Promise<SecretReset> {
  return apiRequest<SecretReset>('/secret/reset', {
    method: 'POST',
    format: 'json',
    body: { application, environment: 'DEVELOPMENT' },
  });
}

/** 200 when the check passes; 422 carries the same shape with isValid false (thrown as ApiError). */
export function validateCertificate(application: string): Promise<CertificateValidation> {
  return apiRequest<CertificateValidation>(
    `/phpsdk/certificates/${encodeURIComponent(application)}/validate`,
    { format: 'json', query: { _format: 'json' } },
  );
}

export async function submitGoLive(app: Application, form: GoLiveForm): Promise<void> {
  const attributes: Record<string, string> = {
    // Spec A 3: the application title plus a Unix-seconds timestamp.
    title: `${app.title} ${Math.floor(Date.now() / 1000)}`,
  };
  for (const [key, field] of Object.entries(GO_LIVE_FIELDS)) {
    attributes[field] = form[key as keyof GoLiveForm].trim();
  }
  await apiRequest('/jsonapi/node/go_live_form', {
    method: 'POST',
    body: {
      data: {
        type: 'node--go_live_form',
        attributes,
        relationships: { field_application: { data: { type: 'node--application', id: app.uuid } } },
      },
    },
  });
}

/** The analytics switch: the response text '1' means enabled (spec A 7). */
export async function analyticsEnabled(): Promise<boolean> {
  const body = await apiRequest<unknown>('/phpsdk/app-analytics/enabled', {
    format: 'json',
    query: { _format: 'json' },
  });
  return String(body).trim() === '1';
}

export interface AnalyticsQuery {
  application: string;
  fromDate: string;
  toDate: string;
}

export async function fetchAggregates(q: AnalyticsQuery): Promise<EndpointAggregate[]> {
  const res = await apiRequest<{ data: EndpointAggregate[] }>('/phpsdk/app-analytics/aggregates', {
    format: 'json',
    query: { ...q },
  });
  return res.data;
}

export async function fetchSumAggregates(q: AnalyticsQuery): Promise<DailyEndpointAggregate[]> {
  const res = await apiRequest<{ data: DailyEndpointAggregate[] }>('/phpsdk/app-analytics/sumAggregates', {
    format: 'json',
    query: { ...q },
  });
  return res.data;
}

/** A product row of the 'Select Product' modal. */
export interface ProductRow {
  uuid: string;
  title: string;
  version: string | null;
  imageUrl: string | null;
  imageAlt: string;
  /** The title's language when it is not the page's (no translation yet): its `lang`. */
  lang: string | undefined;
}

export interface ProductPage {
  rows: ProductRow[];
  count: number;
}

interface ProductResource {
  id: string;
  attributes: { title: string; field_version: string | null };
  relationships: { field_image?: { data: { id: string; meta?: { alt?: string } } | null } };
  meta?: { translation?: TranslationMarker };
}

export type ProductSort = 'default' | 'title' | '-title';

/**
 * Products a subscription may name (spec A 2, 9): not deprecated (the list leaves deprecated
 * products out by default), not commercial, by weight then title unless the user sorts by name.
 */
export async function fetchSubscribableProducts(params: {
  search: string;
  sort: ProductSort;
  page: number;
}): Promise<ProductPage> {
  const search = params.search.trim();
  const doc = await apiRequest<{
    data: ProductResource[];
    included?: { id: string; type: string; attributes: { url: string } }[];
    meta?: { count?: number };
  }>('/jsonapi/node/api_product', {
    query: {
      include: 'field_image',
      'filter[field_commercial_product]': 0,
      'filter[title][operator]': search ? 'CONTAINS' : undefined,
      'filter[title][value]': search || undefined,
      sort: params.sort === 'default' ? 'field_weight,title' : params.sort,
      'page[limit]': APPLICATIONS_PAGE_SIZE,
      'page[offset]': params.page * APPLICATIONS_PAGE_SIZE,
      ...readerLanguage(),
    },
  });
  const files = new Map((doc.included ?? []).map((f) => [f.id, f.attributes.url]));
  return {
    count: doc.meta?.count ?? doc.data.length,
    rows: doc.data.map((p) => {
      const image = p.relationships.field_image?.data ?? null;
      return {
        uuid: p.id,
        title: p.attributes.title,
        version: p.attributes.field_version,
        imageUrl: image ? (files.get(image.id) ?? null) : null,
        imageAlt: image?.meta?.alt ?? '',
        lang: langOf(p.meta?.translation),
      };
    }),
  };
}
