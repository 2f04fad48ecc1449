import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  applySparseFieldset,
  collectionDocument,
  dedupeIncluded,
  pageLinks,
  resourceDocument,
  type ResourceObject,
} from './document.ts';

const article: ResourceObject = {
  type: 'node--article',
  id: 'a1',
  attributes: { title: 'T', body: 'B' },
  relationships: { field_image: { data: { type: 'file--file', id: 'f1' } } },
  links: { self: { href: 'http://x/a1' } },
};

describe('applySparseFieldset', () => {
  it('keeps only the named attributes and relationships of that type', () => {
    expect(applySparseFieldset(article, { 'node--article': ['title', 'field_image'] })).toEqual({
      ...article,
      attributes: { title: 'T' },
    });
    expect(applySparseFieldset(article, { 'node--article': ['body'] })).toEqual({
      type: 'node--article',
      id: 'a1',
      attributes: { body: 'B' },
      links: article.links,
    });
    expect(applySparseFieldset(article, { 'node--article': [] })).toEqual({
      type: 'node--article',
      id: 'a1',
      links: article.links,
    });
    expect(applySparseFieldset(article, { 'file--file': ['uri'] })).toBe(article);
  });
});

describe('dedupeIncluded', () => {
  it('keeps the first of each type + id and drops primary data', () => {
    const f1 = { type: 'file--file', id: 'f1' };
    const f1b = { type: 'file--file', id: 'f1', attributes: { again: true } };
    const u1 = { type: 'user--user', id: 'f1' };
    expect(dedupeIncluded([f1, f1b, u1, article], [article])).toEqual([f1, u1]);
    expect(dedupeIncluded([f1, f1b], null)).toEqual([f1]);
  });
});

describe('documents', () => {
  it('writes a collection with links, meta.count and de-duplicated included', () => {
    const url = new URL('http://portal.test/jsonapi/node/article?sort=-created&page[limit]=1');
    const doc = collectionDocument({
      url,
      data: [article],
      count: 3,
      page: { limit: 1, offset: 0 },
      included: [
        { type: 'file--file', id: 'f1', attributes: { uri: 'u', url: 'x' } },
        { type: 'file--file', id: 'f1', attributes: { uri: 'u', url: 'x' } },
      ],
      fields: { 'file--file': ['url'] },
    });
    expect(doc.jsonapi).toEqual({ version: '1.0' });
    expect(doc.meta).toEqual({ count: 3 });
    expect(doc.included).toEqual([{ type: 'file--file', id: 'f1', attributes: { url: 'x' } }]);
    expect(doc.links?.self?.href).toBe(url.toString());
    const next = new URL(doc.links?.next?.href as string);
    expect(next.searchParams.get('page[offset]')).toBe('1');
    expect(next.searchParams.get('page[limit]')).toBe('1');
    expect(next.searchParams.get('sort')).toBe('-created');
    expect(doc.links?.prev).toBeUndefined();
  });

  it('writes a single resource', () => {
    const doc = resourceDocument({
      url: new URL('http://p/a1'),
      data: article,
      fields: { 'node--article': ['title'] },
    });
    expect(doc).toEqual({
      jsonapi: { version: '1.0' },
      data: { type: 'node--article', id: 'a1', attributes: { title: 'T' }, links: article.links },
      links: { self: { href: 'http://p/a1' } },
    });
  });
});

describe('page links (property)', () => {
  const offsetOf = (href: string) => Number(new URL(href).searchParams.get('page[offset]'));

  it('next exactly while rows remain, prev from any later page, both a limit apart', () => {
    fc.assert(
      fc.property(fc.nat(50), fc.nat(200), fc.nat(200), (limit, offset, count) => {
        const links = pageLinks(new URL('http://p/x?page[offset]=9'), { limit, offset }, count);
        expect(links.next !== undefined).toBe(limit > 0 && offset + limit < count);
        expect(links.prev !== undefined).toBe(limit > 0 && offset > 0);
        if (links.next) expect(offsetOf(links.next.href)).toBe(offset + limit);
        if (links.prev) expect(offsetOf(links.prev.href)).toBe(Math.max(0, offset - limit));
      }),
    );
  });

  it('following next from the first page visits every row once', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 20 }), fc.nat(100), (limit, count) => {
        const seen: number[] = [];
        let offset = 0;
        for (;;) {
          for (let row = offset; row < Math.min(offset + limit, count); row++) seen.push(row);
          const next = pageLinks(new URL('http://p/x'), { limit, offset }, count).next;
          if (!next) break;
          offset = offsetOf(next.href);
        }
        expect(seen).toEqual([...Array(count).keys()]);
      }),
    );
  });
});
