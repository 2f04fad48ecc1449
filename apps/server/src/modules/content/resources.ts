import { createHash } from 'node:crypto';
import type { ResourceObject } from '../../jsonapi/document.ts';
import type { TranslationMarker } from '../../lib/translations.ts';

/** JSON:API resource objects of the content module, in Drupal's shape (README.md). */

const iso = (v: Date | string) => new Date(v).toISOString();

/** A stable uuid for something that has none of its own (an article's image URL). */
export function derivedUuid(seed: string): string {
  const h = createHash('sha1').update(seed).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-${((parseInt(h[16]!, 16) & 3) | 8).toString(16)}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

function absolute(base: string, url: string): string {
  return /^[a-z][a-z0-9+.-]*:/i.test(url) ? url : `${base}${url.startsWith('/') ? '' : '/'}${url}`;
}

const MIME: Record<string, string> = {
  svg: 'image/svg+xml',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  webp: 'image/webp',
  gif: 'image/gif',
};

export function imageFile(base: string, id: string, url: string): ResourceObject {
  const full = absolute(base, url);
  let filename = 'image';
  try {
    filename = decodeURIComponent(new URL(full).pathname.split('/').pop() || 'image');
  } catch {
    // A URL that does not parse keeps the generic name.
  }
  return {
    type: 'file--file',
    id,
    attributes: {
      filename,
      uri: { value: full, url: full },
      url: full,
      filemime: MIME[filename.split('.').pop()?.toLowerCase() ?? ''] ?? 'application/octet-stream',
    },
  };
}

export interface ArticleRow {
  id: number;
  uuid: string;
  title: string;
  path: string | null;
  description: string;
  body_html: string;
  image_url: string | null;
  image_alt: string | null;
  published: boolean;
  internal: boolean;
  scrollspy_visible: boolean;
  created: Date;
  changed: Date;
  category_uuid: string | null;
  category_name: string | null;
  category_weight: number | null;
  author_uuid: string | null;
  author_id: number | null;
  author_name: string | null;
  author_first_name: string | null;
  author_last_name: string | null;
  author_image_url: string | null;
  author_created: Date | null;
  author_changed: Date | null;
}

const imageId = (a: ArticleRow) => derivedUuid(`${a.uuid}:field_image`);
const pictureId = (a: ArticleRow) => derivedUuid(`${a.author_uuid}:user_picture`);

export function articleResource(
  base: string,
  a: ArticleRow,
  translation?: TranslationMarker,
): ResourceObject {
  return {
    ...(translation ? { meta: { translation } } : {}),
    type: 'node--article',
    id: a.uuid,
    attributes: {
      drupal_internal__nid: a.id,
      title: a.title,
      status: a.published,
      created: iso(a.created),
      changed: iso(a.changed),
      path: a.path ? { alias: a.path, langcode: 'en' } : null,
      body: { value: a.body_html, processed: a.body_html, summary: a.description, format: 'full_html' },
      field_description: a.description,
      field_scrollspy_visible: a.scrollspy_visible,
      field_internal: a.internal,
    },
    relationships: {
      field_category: {
        data: a.category_uuid ? { type: 'taxonomy_term--news_categories', id: a.category_uuid } : null,
      },
      field_image: {
        data: a.image_url ? { type: 'file--file', id: imageId(a), meta: { alt: a.image_alt ?? '' } } : null,
      },
      uid: { data: a.author_uuid ? { type: 'user--user', id: a.author_uuid } : null },
    },
    links: { self: { href: `${base}/jsonapi/node/article/${a.uuid}` } },
  };
}

export function newsCategoryResource(
  base: string,
  c: { uuid: string; name: string; weight: number },
  translation?: TranslationMarker,
) {
  return {
    ...(translation ? { meta: { translation } } : {}),
    type: 'taxonomy_term--news_categories',
    id: c.uuid,
    attributes: { name: c.name, weight: c.weight },
    links: { self: { href: `${base}/jsonapi/taxonomy_term/news_categories/${c.uuid}` } },
  } satisfies ResourceObject;
}

/** A category in the reader's language (decision 063): its name, and its marker (none in the default language). */
export type CategoryInLanguage = (c: { uuid: string; name: string; weight: number }) => {
  category: { uuid: string; name: string; weight: number };
  marker?: TranslationMarker | undefined;
};

/** The resources `include` asks for, of a list of articles (their categories in the reader's language). */
export function articleIncludes(
  base: string,
  rows: readonly ArticleRow[],
  include: readonly string[],
  inLanguage: CategoryInLanguage = (category) => ({ category }),
) {
  const wanted = new Set(include);
  const out: ResourceObject[] = [];
  for (const a of rows) {
    if (wanted.has('field_category') && a.category_uuid && a.category_name !== null) {
      const { category, marker } = inLanguage({
        uuid: a.category_uuid,
        name: a.category_name,
        weight: a.category_weight ?? 0,
      });
      out.push(newsCategoryResource(base, category, marker));
    }
    if (wanted.has('field_image') && a.image_url) out.push(imageFile(base, imageId(a), a.image_url));
    if ((wanted.has('uid') || wanted.has('uid.user_picture')) && a.author_uuid && a.author_name !== null) {
      out.push({
        type: 'user--user',
        id: a.author_uuid,
        attributes: {
          drupal_internal__uid: a.author_id,
          name: a.author_name,
          display_name: a.author_name,
          first_name: a.author_first_name,
          last_name: a.author_last_name,
          created: a.author_created ? iso(a.author_created) : null,
          changed: a.author_changed ? iso(a.author_changed) : null,
        },
        relationships: {
          user_picture: {
            data: a.author_image_url
              ? { type: 'file--file', id: pictureId(a), meta: { alt: a.author_name } }
              : null,
          },
        },
      });
    }
    if (wanted.has('uid.user_picture') && a.author_uuid && a.author_image_url) {
      out.push(imageFile(base, pictureId(a), a.author_image_url));
    }
  }
  return out;
}

export interface FaqRow {
  id: number;
  uuid: string;
  question: string;
  answer_html: string;
  weight: number;
  created: Date;
  changed: Date;
  category_uuid: string | null;
  category_name: string | null;
  category_weight: number | null;
}

export function faqResource(base: string, f: FaqRow, translation?: TranslationMarker): ResourceObject {
  return {
    ...(translation ? { meta: { translation } } : {}),
    type: 'node--faq',
    id: f.uuid,
    attributes: {
      drupal_internal__nid: f.id,
      title: f.question,
      field_answer: { value: f.answer_html, processed: f.answer_html, format: 'full_html' },
      weight: f.weight,
      created: iso(f.created),
      changed: iso(f.changed),
    },
    relationships: {
      field_category: {
        data: f.category_uuid ? { type: 'taxonomy_term--faq_categories', id: f.category_uuid } : null,
      },
    },
    links: { self: { href: `${base}/jsonapi/node/faq/${f.uuid}` } },
  };
}

export function faqCategoryResource(
  base: string,
  c: { uuid: string; name: string; weight: number },
  translation?: TranslationMarker,
) {
  return {
    ...(translation ? { meta: { translation } } : {}),
    type: 'taxonomy_term--faq_categories',
    id: c.uuid,
    attributes: { name: c.name, weight: c.weight },
    links: { self: { href: `${base}/jsonapi/taxonomy_term/faq_categories/${c.uuid}` } },
  } satisfies ResourceObject;
}
