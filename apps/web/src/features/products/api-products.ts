import { useQuery } from '@tanstack/react-query';
import { ApiError, apiRequest } from '../../lib/api-client';
import { isUuid } from './text';
import { readerLanguage } from '../../components/content/translation';
import type { Document, Html, Resource } from './api-jsonapi';

/** `node--api_product` attributes (catalog README). */
export interface ProductAttributes {
  title: string;
  body: Html | null;
  path: { alias: string | null } | null;
  field_version: string | null;
  field_label: string | null;
  field_deprecated: boolean;
  field_commercial_product: boolean;
  field_disable_documentation: boolean;
  field_weight: number;
  field_overview_display: string | null;
  field_advantages_header: { id: string; title: string | null; body: Html | null } | null;
}
export type Product = Resource<ProductAttributes>;

export interface CategoryAttributes {
  name: string;
  weight: number;
}
export type Category = Resource<CategoryAttributes>;

export interface FeatureAttributes {
  title: string;
  field_description: Html | null;
  field_icon: { url: string } | null;
}
export interface AdvantageAttributes {
  title: string;
  field_description: Html | null;
}
export interface ComparisonTableAttributes {
  title: string;
  field_product_names: (string | null)[];
  field_product_ids: (string | null)[];
}
export interface ComparisonRowAttributes {
  title: string;
  field_values?: string[];
  weight: number;
}
export interface ChangelogAttributes {
  field_version: string | null;
  field_release_date: string | null;
  field_notes: Html | null;
}
export type ChangelogEntry = Resource<ChangelogAttributes>;

export interface DocumentationSummaryAttributes {
  title: string;
  alias: string;
  field_version: string | null;
  field_deprecated: boolean;
}

/** Client errors are answers, not glitches: do not ask again for a 404. */
export function retryServerErrors(count: number, error: unknown): boolean {
  return !(error instanceof ApiError && error.status < 500) && count < 1;
}

export const productKeys = {
  list: (category: string | null, page: number) => ['products', 'list', category, page] as const,
  categories: ['products', 'categories'] as const,
  uuid: (idOrAlias: string) => ['products', 'uuid', idOrAlias] as const,
  one: (uuid: string) => ['products', 'one', uuid] as const,
  changelog: (uuid: string) => ['products', 'changelog', uuid] as const,
  newest: (uuid: string) => ['products', 'newest', uuid] as const,
};

/**
 * GET /jsonapi/node/api_product as the spec's call table has it: deprecated 0 or null (an OR
 * group), images with uri and url only, optional category, paged with offset = limit x page.
 * Ordered by weight then title (the server's default order).
 */
export function fetchProducts(category: string | null, page: number, limit: number) {
  return apiRequest<Document<Product[]>>('/jsonapi/node/api_product', {
    query: {
      include: 'field_image',
      'fields[file--file]': 'uri,url',
      'filter[deprecated][group][conjunction]': 'OR',
      'filter[not-deprecated][condition][path]': 'field_deprecated',
      'filter[not-deprecated][condition][value]': '0',
      'filter[not-deprecated][condition][memberOf]': 'deprecated',
      'filter[no-deprecated-flag][condition][path]': 'field_deprecated',
      'filter[no-deprecated-flag][condition][operator]': 'IS NULL',
      'filter[no-deprecated-flag][condition][memberOf]': 'deprecated',
      'filter[field_category.id]': category ?? undefined,
      'page[limit]': limit,
      'page[offset]': limit * page,
      ...readerLanguage(),
    },
  });
}

export function useProducts(category: string | null, page: number, limit: number) {
  return useQuery({
    queryKey: productKeys.list(category, page),
    queryFn: () => fetchProducts(category, page, limit),
    retry: retryServerErrors,
  });
}

export function useCategories() {
  return useQuery({
    queryKey: productKeys.categories,
    queryFn: () => apiRequest<Document<Category[]>>('/jsonapi/taxonomy_term/product_categories'),
    staleTime: 5 * 60_000,
    retry: retryServerErrors,
  });
}

/** A uuid as is; an alias through GET /phpsdk/products/getProductUuid (spec B 7). */
export function useProductUuid(idOrAlias: string) {
  return useQuery({
    queryKey: productKeys.uuid(idOrAlias),
    queryFn: async () => {
      if (isUuid(idOrAlias)) return idOrAlias;
      const res = await apiRequest<{ data: { uuid: string } }>('/phpsdk/products/getProductUuid', {
        format: 'json',
        query: { pathAlias: idOrAlias },
      });
      return res.data.uuid;
    },
    retry: retryServerErrors,
  });
}

const PRODUCT_INCLUDES = [
  'field_image',
  'field_header_image',
  'field_category',
  'field_endpoints',
  'field_features',
  'field_advantages',
  'field_related_products',
  'field_related_products.field_image',
  'field_comparison_table',
  'field_comparison_table.field_rows',
].join(',');

export function useProduct(uuid: string | undefined) {
  return useQuery({
    queryKey: productKeys.one(uuid ?? ''),
    queryFn: () =>
      apiRequest<Document<Product>>(`/jsonapi/node/api_product/${encodeURIComponent(uuid ?? '')}`, {
        query: { include: PRODUCT_INCLUDES, ...readerLanguage() },
      }),
    enabled: Boolean(uuid),
    retry: retryServerErrors,
  });
}

/** GET /jsonapi/node/change_log filtered by the product (newest first, the server's order). */
export function useChangelog(uuid: string | undefined) {
  return useQuery({
    queryKey: productKeys.changelog(uuid ?? ''),
    queryFn: () =>
      apiRequest<Document<ChangelogEntry[]>>('/jsonapi/node/change_log', {
        query: { 'filter[field_product.id]': uuid },
      }),
    enabled: Boolean(uuid),
    retry: retryServerErrors,
  });
}

export interface NewestVersion {
  uuid: string;
  title: string;
  alias: string;
  version: string | null;
}

/** The newest supported version of a deprecated product's family, or null when there is none. */
export function useNewestVersion(uuid: string | undefined, enabled: boolean) {
  return useQuery({
    queryKey: productKeys.newest(uuid ?? ''),
    queryFn: async () => {
      try {
        const res = await apiRequest<{ data: NewestVersion }>(
          `/api/products/${encodeURIComponent(uuid ?? '')}/newest-version`,
          { format: 'json' },
        );
        return res.data;
      } catch (error) {
        if (error instanceof ApiError && error.status === 404) return null;
        throw error;
      }
    },
    enabled: Boolean(uuid) && enabled,
    retry: retryServerErrors,
  });
}
