import { createHash } from 'node:crypto';
import { en } from '@portico/contracts/messages';
import type { ResourceObject } from '../../jsonapi/document.ts';
import type {
  AdvantageRow,
  CategoryRow,
  ChangeLogRow,
  ComparisonColumn,
  ComparisonRowRow,
  ComparisonTableRow,
  DocumentationRow,
  FeatureRow,
  ProductRelations,
  ProductRow,
} from './repo.ts';

/**
 * JSON:API resource objects of the catalog, in Drupal's shape (README.md). `base` is the
 * absolute origin links are built on.
 */

const iso = (v: Date | string) => new Date(v).toISOString();

export function html(value: string | null) {
  return value === null ? null : { value, processed: value, format: 'full_html' };
}

/** A stable uuid for something that has none of its own (a product's image URL). */
export function derivedUuid(seed: string): string {
  const h = createHash('sha1').update(seed).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-${((parseInt(h[16]!, 16) & 3) | 8).toString(16)}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

function absolute(base: string, url: string): string {
  return /^[a-z][a-z0-9+.-]*:/i.test(url) ? url : `${base}${url.startsWith('/') ? '' : '/'}${url}`;
}

export function fileId(owner: string, field: string): string {
  return derivedUuid(`${owner}:${field}`);
}

/** `file--file` for an image the catalog refers to by URL. */
export function imageFile(base: string, owner: string, field: string, url: string): ResourceObject {
  const full = absolute(base, url);
  const filename = decodeURIComponent(new URL(full).pathname.split('/').pop() ?? 'image');
  const ext = filename.split('.').pop()?.toLowerCase() ?? '';
  const mime =
    {
      svg: 'image/svg+xml',
      png: 'image/png',
      jpg: 'image/jpeg',
      jpeg: 'image/jpeg',
      webp: 'image/webp',
      gif: 'image/gif',
    }[ext] ?? 'application/octet-stream';
  return {
    type: 'file--file',
    id: fileId(owner, field),
    attributes: { filename, uri: { value: full, url: full }, url: full, filemime: mime },
  };
}

const ref = (type: string, id: string, meta?: Record<string, unknown>) => ({
  type,
  id,
  ...(meta ? { meta } : {}),
});

export function categoryResource(base: string, c: CategoryRow): ResourceObject {
  return {
    type: 'taxonomy_term--product_categories',
    id: c.uuid,
    attributes: { drupal_internal__tid: c.id, name: c.name, weight: c.weight },
    links: { self: { href: `${base}/jsonapi/taxonomy_term/product_categories/${c.uuid}` } },
  };
}

export function productResource(base: string, p: ProductRow, rel: ProductRelations): ResourceObject {
  const docs = rel.documentations.get(p.id) ?? [];
  const category = p.category_id === null ? undefined : rel.categories.get(p.category_id);
  const table = p.comparison_table_id === null ? undefined : rel.comparisonTables.get(p.comparison_table_id);
  const advantagesHeader =
    p.advantages_header_title !== null || p.advantages_header_body !== null
      ? { id: p.uuid, title: p.advantages_header_title, body: html(p.advantages_header_body) }
      : null;
  return {
    type: 'node--api_product',
    id: p.uuid,
    attributes: {
      drupal_internal__nid: p.id,
      title: p.title,
      body: html(p.description),
      path: { alias: `/${p.alias}`, langcode: 'en' },
      field_version: p.version,
      field_label: p.label,
      field_deprecated: p.deprecated,
      field_commercial_product: p.commercial,
      field_disable_documentation: p.disable_documentation,
      field_weight: p.weight,
      field_overview_display: p.overview_display,
      field_scope: p.scope,
      field_scope_production: p.scope_production,
      field_psd2_certificate_required: p.psd2_certificate_required,
      field_advantages_header: advantagesHeader,
      created: iso(p.created),
      changed: iso(p.changed),
    },
    relationships: {
      field_image: {
        data: p.image_url
          ? ref('file--file', fileId(p.uuid, 'field_image'), { alt: p.image_alt ?? p.title })
          : null,
      },
      field_header_image: {
        data: p.header_image_url
          ? ref('file--file', fileId(p.uuid, 'field_header_image'), { alt: p.image_alt ?? p.title })
          : null,
      },
      field_category: { data: category ? ref('taxonomy_term--product_categories', category.uuid) : null },
      field_endpoints: { data: docs.map((d) => ref('node--api_documentation', d.uuid)) },
      field_documentation: { data: docs[0] ? ref('node--api_documentation', docs[0].uuid) : null },
      field_features: { data: (rel.features.get(p.id) ?? []).map((f) => ref('paragraph--feature', f.uuid)) },
      field_advantages: {
        data: (rel.advantages.get(p.id) ?? []).map((a) => ref('paragraph--advantage', a.uuid)),
      },
      field_related_products: {
        data: (rel.related.get(p.id) ?? []).map((r) => ref('node--api_product', r.uuid)),
      },
      field_comparison_table: { data: table ? ref('node--comparison_table', table.uuid) : null },
    },
    links: { self: { href: `${base}/jsonapi/node/api_product/${p.uuid}` } },
  };
}

/** The product's images as `file--file` resources (for include=field_image / field_header_image). */
export function productImages(base: string, p: ProductRow, field: 'field_image' | 'field_header_image') {
  const url = field === 'field_image' ? p.image_url : p.header_image_url;
  return url ? [imageFile(base, p.uuid, field, url)] : [];
}

export function featureResource(f: FeatureRow): ResourceObject {
  return {
    type: 'paragraph--feature',
    id: f.uuid,
    attributes: {
      title: f.title,
      field_description: html(f.description),
      field_icon: f.icon_url ? { url: f.icon_url } : null,
      weight: f.weight,
    },
  };
}

export function advantageResource(a: AdvantageRow): ResourceObject {
  return {
    type: 'paragraph--advantage',
    id: a.uuid,
    attributes: { title: a.title, field_description: html(a.description), weight: a.weight },
  };
}

export function documentationResource(
  base: string,
  d: DocumentationRow,
  rel: { products: ProductRow[]; changeLog: { uuid: string }[] },
): ResourceObject {
  const alias = encodeURIComponent(d.alias);
  return {
    type: 'node--api_documentation',
    id: d.uuid,
    attributes: {
      drupal_internal__nid: d.id,
      title: d.title,
      path: { alias: `/${d.alias}`, langcode: 'en' },
      alias: d.alias,
      field_api_id: d.api_id,
      field_version: d.version,
      field_deprecated: d.deprecated,
      field_plan: d.plan,
      field_tour: d.tour ?? null,
      field_bot_enabled: d.bot_enabled,
      field_bot_url: d.bot_url,
      field_source_format: d.source_format,
      field_source_spec_version: d.source_spec_version,
      operation_count: d.operation_count,
      content_hash: d.content_hash,
      url: `${base}/api/swagger?alias=${alias}`,
      docUrl: `/documentation/${alias}`,
      sandbox_url: `${base}/sandbox/${alias}`,
      created: iso(d.created),
      changed: iso(d.changed),
    },
    relationships: {
      field_products: { data: rel.products.map((p) => ref('node--api_product', p.uuid)) },
      field_change_log: { data: rel.changeLog.map((e) => ref('node--change_log', e.uuid)) },
    },
    links: {
      self: { href: `${base}/jsonapi/node/api_documentation/${d.uuid}` },
      index: { href: `${base}/api/apidocs/${alias}/index` },
      original: { href: `${base}/api/apidocs/${alias}/download/original` },
      converted: { href: `${base}/api/apidocs/${alias}/download/openapi.json` },
    },
  };
}

function isoDate(v: Date | string | null): string | null {
  if (v === null) return null;
  if (typeof v === 'string') return v.slice(0, 10);
  return v.toISOString().slice(0, 10);
}

export function changeLogResource(base: string, e: ChangeLogRow, productUuid: string): ResourceObject {
  return {
    type: 'node--change_log',
    id: e.uuid,
    attributes: {
      drupal_internal__nid: e.id,
      field_version: e.version,
      field_release_date: isoDate(e.release_date),
      field_notes: html(e.notes),
      created: iso(e.created),
    },
    relationships: { field_product: { data: ref('node--api_product', productUuid) } },
    links: { self: { href: `${base}/jsonapi/node/change_log/${e.uuid}` } },
  };
}

/**
 * A column's title: the live product's, else the custom title, else 'Deprecated API' (spec B 3),
 * said in the reader's language by the caller.
 */
export function columnName(
  column: ComparisonColumn,
  deprecatedApi: string = en.catalog.deprecatedApi,
): string {
  if (column.product && !column.product.deprecated) return column.product.title;
  return column.title || deprecatedApi;
}

export function comparisonTableResource(
  base: string,
  t: ComparisonTableRow,
  columns: ComparisonColumn[],
  rows: ComparisonRowRow[],
  deprecatedApi?: string,
): ResourceObject {
  return {
    type: 'node--comparison_table',
    id: t.uuid,
    attributes: {
      drupal_internal__nid: t.id,
      title: t.title,
      field_product_names: columns.map((c) => columnName(c, deprecatedApi)),
      field_product_ids: columns.map((c) => c.product?.uuid ?? null),
      created: iso(t.created),
      changed: iso(t.changed),
    },
    relationships: {
      field_rows: { data: rows.map((r) => ref(`paragraph--${r.type}`, r.uuid)) },
      field_products: {
        data: columns.flatMap((c) => (c.product ? [ref('node--api_product', c.product.uuid)] : [])),
      },
    },
    links: { self: { href: `${base}/jsonapi/node/comparison_table/${t.uuid}` } },
  };
}

export function comparisonRowResource(r: ComparisonRowRow): ResourceObject {
  return {
    type: `paragraph--${r.type}`,
    id: r.uuid,
    attributes:
      r.type === 'comparison_category'
        ? { title: r.title, weight: r.weight }
        : { title: r.title, field_values: r.values, weight: r.weight },
  };
}
