import { describe, expect, it } from 'vitest';
import { toArticles } from './articles';

const article = (category: string | null) => ({
  type: 'node--article' as const,
  id: 'a1',
  attributes: {
    title: 'Neu',
    created: '2026-01-01T00:00:00Z',
    path: { alias: '/blog/neu' },
    body: { processed: '<p>x</p>', summary: '' },
    field_description: 'Kurz',
    field_scrollspy_visible: false,
  },
  relationships: {
    field_category: { data: category ? { type: 'taxonomy_term--news_categories', id: category } : null },
    field_image: { data: null },
    uid: { data: null },
  },
});

describe('toArticles', () => {
  it("carries the language of the category's name, so a fallback is marked", () => {
    const [withFallback] = toArticles({
      data: [article('c1')],
      included: [
        {
          type: 'taxonomy_term--news_categories',
          id: 'c1',
          attributes: { name: 'Security' },
          meta: { translation: { langcode: 'de', shown: 'en', fallback: true } },
        },
      ],
      links: {},
      meta: { count: 1 },
    });
    expect(withFallback!.category).toEqual({
      uuid: 'c1',
      name: 'Security',
      translation: { langcode: 'de', shown: 'en', fallback: true },
    });
    const [english] = toArticles({
      data: [article('c1')],
      included: [{ type: 'taxonomy_term--news_categories', id: 'c1', attributes: { name: 'Security' } }],
      links: {},
      meta: { count: 1 },
    });
    expect(english!.category?.translation).toBeNull();
    expect(toArticles({ data: [article(null)], links: {}, meta: { count: 1 } })[0]!.category).toBeNull();
  });
});
