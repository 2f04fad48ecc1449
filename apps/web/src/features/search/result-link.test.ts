import { describe, expect, it } from 'vitest';
import { highlightTerms, resultLink, splitHighlights } from './result-link';

describe('search result links (spec B 2.6)', () => {
  const uuid = '0b6a3f4e-2f5e-4c1e-9a39-5b0c6f0f7d11';
  it('links each type where the spec says', () => {
    expect(resultLink({ type: 'api_endpoint', uuid, link: null })).toBe(`/documentation/${uuid}`);
    expect(resultLink({ type: 'api_endpoint', uuid, link: '/documentation/x#operation/a' })).toBe(
      '/documentation/x#operation/a',
    );
    expect(resultLink({ type: 'api_product', uuid, link: null })).toBe(`/apiProduct/${uuid}`);
    expect(resultLink({ type: 'api_product', uuid, link: '/apiProduct/accounts-api-v1' })).toBe(
      '/apiProduct/accounts-api-v1',
    );
    expect(resultLink({ type: 'forum', uuid, link: '/elsewhere' })).toBe(`/forum-topic/${uuid}`);
    expect(resultLink({ type: 'page', uuid, link: '/privacy' })).toBe('/privacy');
    expect(resultLink({ type: 'article', uuid, link: '/blog/instant-payments' })).toBe(
      '/blog/instant-payments',
    );
  });

  it('highlights only words longer than 2 characters', () => {
    expect(highlightTerms('to PAY or not', 3)).toEqual(['pay', 'not']);
    expect(splitHighlights('Pay now, payments later', ['pay'])).toEqual([
      { text: 'Pay', hit: true },
      { text: ' now, ', hit: false },
      { text: 'pay', hit: true },
      { text: 'ments later', hit: false },
    ]);
    expect(splitHighlights('a (b)', ['(b'])).toEqual([
      { text: 'a ', hit: false },
      { text: '(b', hit: true },
      { text: ')', hit: false },
    ]);
    expect(splitHighlights('nothing', [])).toEqual([{ text: 'nothing', hit: false }]);
  });
});
