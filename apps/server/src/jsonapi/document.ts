import type { FastifyReply, FastifyRequest } from 'fastify';
import { publicOrigin } from '../lib/public-url.ts';
import type { PageParams } from './query.ts';

/**
 * JSON:API 1.0 documents as Drupal's JSON:API module writes them: resource objects with
 * attributes and relationships, sparse fieldsets, collection links (`self`, and `next` / `prev`
 * as absolute URLs with page[offset] moved), meta.count, and `included` without duplicates.
 * Links are objects with `href`, like Drupal's.
 */

export const JSONAPI_MEDIA_TYPE = 'application/vnd.api+json';
export const JSONAPI_VERSION = { version: '1.0' } as const;

export interface Link {
  href: string;
  meta?: Record<string, unknown>;
}
export type Links = Record<string, Link>;

export interface ResourceIdentifier {
  type: string;
  id: string;
  meta?: Record<string, unknown>;
}

export interface Relationship {
  data: ResourceIdentifier | ResourceIdentifier[] | null;
  links?: Links;
  meta?: Record<string, unknown>;
}

export interface ResourceObject {
  type: string;
  id: string;
  attributes?: Record<string, unknown>;
  relationships?: Record<string, Relationship>;
  links?: Links;
  meta?: Record<string, unknown>;
}

export interface JsonApiDocument {
  jsonapi: typeof JSONAPI_VERSION;
  data: ResourceObject | ResourceObject[] | null;
  included?: ResourceObject[];
  links?: Links;
  meta?: Record<string, unknown>;
}

/** Keeps only the attributes and relationships named in `fields[type]` (JSON:API sparse fieldsets). */
export function applySparseFieldset(
  resource: ResourceObject,
  fields: Readonly<Record<string, readonly string[]>> | undefined,
): ResourceObject {
  const wanted = fields && Object.hasOwn(fields, resource.type) ? fields[resource.type] : undefined;
  if (!wanted) return resource;
  const pick = <T>(members: Record<string, T> | undefined) => {
    if (!members) return undefined;
    const kept = Object.fromEntries(Object.entries(members).filter(([name]) => wanted.includes(name)));
    return Object.keys(kept).length ? kept : undefined;
  };
  const { attributes, relationships, ...rest } = resource;
  const out: ResourceObject = { ...rest };
  const keptAttributes = pick(attributes);
  const keptRelationships = pick(relationships);
  if (keptAttributes) out.attributes = keptAttributes;
  if (keptRelationships) out.relationships = keptRelationships;
  return out;
}

/**
 * The absolute URL of the request on PUBLIC_URL (see publicOrigin): the base of every link a
 * document carries, never the Host header a client sent.
 */
export function requestUrl(request: FastifyRequest): URL {
  // Appended, not resolved: a path such as `//evil.example/x` stays a path on our origin.
  return new URL(`${new URL(publicOrigin(request.server, request)).origin}${request.url}`);
}

/** The origin the client addressed (on PUBLIC_URL, see requestUrl): the base of every link. */
export function baseUrl(request: FastifyRequest): string {
  return requestUrl(request).origin;
}

/** The same URL with page[offset] (and page[limit]) set; other parameters stay. */
export function pageUrl(url: URL, page: PageParams): string {
  const u = new URL(url);
  u.searchParams.set('page[offset]', String(page.offset));
  u.searchParams.set('page[limit]', String(page.limit));
  return u.toString();
}

/** `self`, plus `next` while rows remain after this page and `prev` when not on the first page. */
export function pageLinks(url: URL, page: PageParams, count: number): Links {
  const links: Links = { self: { href: url.toString() } };
  if (page.limit > 0 && page.offset + page.limit < count) {
    links.next = { href: pageUrl(url, { limit: page.limit, offset: page.offset + page.limit }) };
  }
  if (page.limit > 0 && page.offset > 0) {
    links.prev = { href: pageUrl(url, { limit: page.limit, offset: Math.max(0, page.offset - page.limit) }) };
  }
  return links;
}

/** Included resources: one per type+id, none that is already primary data. */
export function dedupeIncluded(
  included: Iterable<ResourceObject>,
  primary: ResourceObject | readonly ResourceObject[] | null = null,
): ResourceObject[] {
  const key = (r: { type: string; id: string }) => `${r.type}\u0000${r.id}`;
  const seen = new Set<string>();
  for (const r of primary === null ? [] : Array.isArray(primary) ? primary : [primary as ResourceObject]) {
    seen.add(key(r));
  }
  const out: ResourceObject[] = [];
  for (const r of included) {
    if (seen.has(key(r))) continue;
    seen.add(key(r));
    out.push(r);
  }
  return out;
}

export interface CollectionOptions {
  /** The request URL (see requestUrl); becomes links.self and the base of next / prev. */
  url: URL;
  data: readonly ResourceObject[];
  /** Rows matching the filter across all pages: meta.count, and whether there is a next page. */
  count: number;
  page: PageParams;
  included?: Iterable<ResourceObject>;
  fields?: Readonly<Record<string, readonly string[]>>;
  meta?: Record<string, unknown>;
  links?: Links;
}

export function collectionDocument(options: CollectionOptions): JsonApiDocument {
  const data = options.data.map((r) => applySparseFieldset(r, options.fields));
  const doc: JsonApiDocument = {
    jsonapi: JSONAPI_VERSION,
    data,
    links: { ...pageLinks(options.url, options.page, options.count), ...options.links },
    meta: { count: options.count, ...options.meta },
  };
  if (options.included) {
    doc.included = dedupeIncluded(options.included, data).map((r) => applySparseFieldset(r, options.fields));
  }
  return doc;
}

export interface ResourceDocumentOptions {
  url: URL;
  data: ResourceObject | null;
  included?: Iterable<ResourceObject>;
  fields?: Readonly<Record<string, readonly string[]>>;
  meta?: Record<string, unknown>;
}

export function resourceDocument(options: ResourceDocumentOptions): JsonApiDocument {
  const data = options.data ? applySparseFieldset(options.data, options.fields) : null;
  const doc: JsonApiDocument = {
    jsonapi: JSONAPI_VERSION,
    data,
    links: { self: { href: options.url.toString() } },
  };
  if (options.included) {
    doc.included = dedupeIncluded(options.included, data).map((r) => applySparseFieldset(r, options.fields));
  }
  if (options.meta) doc.meta = options.meta;
  return doc;
}

/** Sends a document with the JSON:API media type (adding `jsonapi` when missing). */
export function sendDocument(
  reply: FastifyReply,
  doc: Omit<JsonApiDocument, 'jsonapi' | 'data'> & { data?: JsonApiDocument['data'] },
  status = 200,
): FastifyReply {
  return reply
    .status(status)
    .type(JSONAPI_MEDIA_TYPE)
    .send({ jsonapi: JSONAPI_VERSION, ...doc });
}
