import { describe, expect, it } from 'vitest';
import { articleParams } from './articles';

describe('blog queries', () => {
  it('pages by 5 with offset = limit x page, status=1, newest first', () => {
    expect(articleParams({ page: 2 })).toMatchObject({
      'page[limit]': '5',
      'page[offset]': '10',
      'filter[status]': '1',
      sort: '-created',
    });
  });

  it('filters categories as an OR group and the title with CONTAINS', () => {
    const p = articleParams({ page: 0, categories: ['a', 'b'], search: ' pay ' });
    expect(p['filter[categories][group][conjunction]']).toBe('OR');
    expect(p['filter[category-1][condition][value]']).toBe('b');
    expect(p['filter[category-1][condition][memberOf]']).toBe('categories');
    expect(p['filter[title][value]']).toBe('pay');
    expect(p['filter[title][operator]']).toBe('CONTAINS');
    expect(articleParams({ page: 0, search: '  ' })['filter[title][value]']).toBeUndefined();
  });
});
