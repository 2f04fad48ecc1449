import type { OperationDetail, OperationIndex } from '@portico/contracts/catalog';
import {
  documentationUrl,
  isUuid,
  operationIndexUrl,
  operationUrl,
} from '@portico/contracts/documentation-data';
import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../lib/api-client';
import type { Document, Resource } from './api-jsonapi';
import type { ChangelogAttributes, ProductAttributes } from './api-products';
import { retryServerErrors } from './api-products';
import { locale } from '../../lib/i18n';
import { readerLanguage } from '../../components/content/translation';

/** `node--api_documentation` attributes (catalog README). */
export interface DocumentationAttributes {
  title: string;
  alias: string;
  path: { alias: string | null } | null;
  field_api_id: string | null;
  field_version: string | null;
  field_deprecated: boolean;
  field_plan: string | null;
  field_tour: unknown;
  field_bot_enabled: boolean;
  field_bot_url: string | null;
  field_source_format: string | null;
  url: string;
  docUrl: string;
}
export type Documentation = Resource<DocumentationAttributes>;
export type { ChangelogAttributes, ProductAttributes };

export const documentationKeys = {
  one: (idOrAlias: string) => ['documentation', idOrAlias] as const,
  ofProduct: (productId: string) => ['documentation', 'of-product', productId] as const,
  index: (alias: string) => ['documentation', 'index', alias] as const,
};

/**
 * One documentation by uuid or alias (spec B 5: the server tries the uuid, then the alias), with
 * its products (and their images) and the changelog entries of those products.
 */
function documentationQuery(idOrAlias: string) {
  return queryOptions({
    queryKey: documentationKeys.one(idOrAlias),
    // The server's HTML for the page preloads this very request (decision 034).
    // In the page's language (decision 063): the same URL the server's HTML preloads.
    queryFn: () =>
      apiRequest<Document<Documentation>>(documentationUrl(idOrAlias, locale), { preloadable: true }),
    retry: retryServerErrors,
  });
}

export function useDocumentation(idOrAlias: string) {
  return useQuery(documentationQuery(idOrAlias));
}

/** The API documentations of one product, for the product's documentation view. */
export function useProductDocumentations(productId: string | undefined) {
  return useQuery({
    queryKey: documentationKeys.ofProduct(productId ?? ''),
    queryFn: () =>
      apiRequest<Document<Documentation[]>>('/jsonapi/node/api_documentation', {
        query: { 'filter[field_products.id]': productId, ...readerLanguage() },
      }),
    enabled: Boolean(productId),
    retry: retryServerErrors,
  });
}

/**
 * Where the reference reads its two kinds of answers (catalog README): a published documentation's
 * (`/api/apidocs/<alias>/…`, public, preloaded by the page's HTML), or a draft's before it is
 * published (the console's preview: the same answers under `/admin-api/catalog/apis/<alias>/drafts/
 * <id>/documentation/…`, API managers only). The reference renders both alike.
 */
export interface DocumentationSource {
  /** The documentation's alias (the draft's too: the alias it will be published under). */
  alias: string;
  /** The query key of the index; an operation's extends it with its key and the content hash. */
  key: readonly string[];
  indexUrl: string;
  operationUrl: (operationKey: string) => string;
  /**
   * A draft's preview: nothing is preloaded by the HTML, and what works only against the published
   * version (the sandbox's try-out and its history, the tour) is left out.
   */
  preview: boolean;
}

/** The published documentation of `alias` (cached per alias: one object, stable for React). */
const publishedSources = new Map<string, DocumentationSource>();
export function publishedSource(alias: string): DocumentationSource {
  let source = publishedSources.get(alias);
  if (!source) {
    source = {
      alias,
      key: documentationKeys.index(alias),
      indexUrl: operationIndexUrl(alias, locale),
      operationUrl: (key) => operationUrl(alias, key),
      preview: false,
    };
    publishedSources.set(alias, source);
  }
  return source;
}

/** A draft of `alias` before it is published, for the console's preview (API managers only). */
export function draftSource(alias: string, draftId: string): DocumentationSource {
  const base = `/admin-api/catalog/apis/${encodeURIComponent(alias)}/drafts/${encodeURIComponent(draftId)}/documentation`;
  return {
    alias,
    key: ['documentation', 'draft', alias, draftId],
    indexUrl: `${base}/index`,
    operationUrl: (key) => `${base}/operations/${encodeURIComponent(key)}`,
    preview: true,
  };
}

/** The operation index: tags, operations, servers and security schemes, no schemas. */
function indexQuery(source: DocumentationSource) {
  return queryOptions({
    queryKey: source.key,
    // Preloaded by the server's HTML when the address names the alias (decision 034).
    queryFn: () =>
      apiRequest<OperationIndex>(source.indexUrl, { format: 'json', preloadable: !source.preview }),
    retry: retryServerErrors,
    staleTime: 5 * 60_000,
  });
}

const operationIndexQuery = (alias: string) => indexQuery(publishedSource(alias));

export function useOperationIndex(alias: string | undefined) {
  return useQuery({ ...operationIndexQuery(alias ?? ''), enabled: Boolean(alias) });
}

/** The index of a source, published or a draft's. */
export function useSourceIndex(source: DocumentationSource) {
  return useQuery(indexQuery(source));
}

/**
 * The documentation page's first data (its route's preloadData), the requests the HTML preloads:
 * the documentation and, when the address names the alias, its operation index.
 */
export function preloadDocumentationPage(client: QueryClient, idOrAlias: string): Promise<unknown> {
  return Promise.all([
    client.prefetchQuery(documentationQuery(idOrAlias)),
    isUuid(idOrAlias) ? undefined : client.prefetchQuery(operationIndexQuery(idOrAlias)),
  ]);
}

/** Operation details asked for before the index is in (a deep link), by URL, until a query takes them. */
const earlyOperations = new Map<string, Promise<OperationDetail>>();

/**
 * A deep link names its operation before the index (which the details' query key needs) has
 * arrived: asking for the details at once, beside the index, saves a round trip before the linked
 * operation is shown. The reference's query takes the answer (or the failure) when it runs.
 */
export function requestOperationEarly(alias: string, key: string): void {
  const url = operationUrl(alias, key);
  if (earlyOperations.has(url)) return;
  // The server preloads it when the address's query names it (decision 043): the same request.
  const pending = apiRequest<OperationDetail>(url, { format: 'json', preloadable: true });
  pending.catch(() => undefined); // handled by the query that takes it
  earlyOperations.set(url, pending);
}

/** The query of one operation's details; the content hash keys the cache. */
function operationQuery(source: DocumentationSource, key: string, contentHash: string) {
  return queryOptions({
    queryKey: [...source.key, 'operation', key, contentHash],
    queryFn: () => {
      const url = source.operationUrl(key);
      const early = earlyOperations.get(url);
      earlyOperations.delete(url);
      // Preloadable: the server's HTML preloads the first screen's operations (decision 043).
      return early ?? apiRequest<OperationDetail>(url, { format: 'json', preloadable: !source.preview });
    },
    retry: retryServerErrors,
    staleTime: Infinity,
  });
}

/** One operation's details, loaded when it is expanded (or before: prefetchOperation). */
export function useOperation(source: DocumentationSource, key: string, contentHash: string) {
  return useQuery(operationQuery(source, key, contentHash));
}

/**
 * Whether the details of an operation shown before the app (the server's first screen) have
 * answered, or failed: true when there is none, or while the index (its content hash) is not in.
 * The query is the reference's own, so the details are in its cache when it opens the operation.
 */
export function useOperationAnswered(
  alias: string | undefined,
  key: string | undefined,
  contentHash: string | undefined,
) {
  const wanted = Boolean(alias && key && contentHash);
  const details = useQuery({
    ...operationQuery(publishedSource(alias ?? ''), key ?? '', contentHash ?? ''),
    enabled: wanted,
  });
  return !wanted || !details.isPending;
}

/**
 * Fetches one operation's details into the cache before it is expanded (the pointer or the focus
 * is on it, or it is among the first shown), so that opening it need not wait for the server.
 * Details already cached, or on their way, are not asked for again.
 */
export function prefetchOperation(
  client: QueryClient,
  source: DocumentationSource,
  key: string,
  contentHash: string,
) {
  void client.prefetchQuery(operationQuery(source, key, contentHash));
}

/** Where the original and the converted document are downloaded (the server's links). */
export function downloadLinks(doc: Documentation): { original: string; json: string; yaml: string } {
  const base = `/api/apidocs/${encodeURIComponent(doc.attributes.alias)}/download`;
  const json = doc.links?.converted?.href ?? `${base}/openapi.json`;
  return {
    original: doc.links?.original?.href ?? `${base}/original`,
    json,
    yaml: json.replace(/openapi\.json$/, 'openapi.yaml'),
  };
}
