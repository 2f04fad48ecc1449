import { describe, expect, it } from 'vitest';
import { draftSource, publishedSource } from './api-documentation';

describe('the reference’s sources', () => {
  it('reads a published documentation from its public answers, one object per alias', () => {
    const source = publishedSource('accounts-v1');
    expect(source).toBe(publishedSource('accounts-v1'));
    expect(source.indexUrl).toBe('/api/apidocs/accounts-v1/index');
    expect(source.operationUrl('get accounts/{id}')).toBe(
      '/api/apidocs/accounts-v1/operations/get%20accounts%2F%7Bid%7D',
    );
    expect(source.preview).toBe(false);
  });

  it('reads a draft from the console’s answers, cached apart from the published version', () => {
    const id = '0b6b0f9e-7d43-4f0c-9a55-1f0d2f1c2b3a';
    const draft = draftSource('accounts-v1', id);
    expect(draft.indexUrl).toBe(`/admin-api/catalog/apis/accounts-v1/drafts/${id}/documentation/index`);
    expect(draft.operationUrl('listStatements')).toBe(
      `/admin-api/catalog/apis/accounts-v1/drafts/${id}/documentation/operations/listStatements`,
    );
    expect(draft.preview).toBe(true);
    // Neither key is a prefix of the other: a draft's answers never stand for the published ones.
    const published = publishedSource('accounts-v1').key;
    expect(draft.key.slice(0, published.length)).not.toEqual(published);
    expect(published.slice(0, draft.key.length)).not.toEqual(draft.key);
  });
});
