import { describe, expect, it } from 'vitest';
import {
  countLabel,
  type CountMessage,
  deepLinkedOperation,
  documentationPageId,
  firstDocumentationRequests,
  operationAddress,
} from './documentation-data.ts';

describe('documentation page addresses', () => {
  it('finds the documentation id of the page, decoded, and nothing on other pages', () => {
    expect(documentationPageId('/documentation/accounts-v1')).toBe('accounts-v1');
    expect(documentationPageId('/documentation/a%20b/')).toBe('a b');
    expect(documentationPageId('/documentation/%E0%A4%A')).toBeUndefined();
    expect(documentationPageId('/documentation/a/b')).toBeUndefined();
    expect(documentationPageId('/api-products/accounts')).toBeUndefined();
  });

  it('names an operation in the query for the server and in the fragment for the app', () => {
    const address = operationAddress('/documentation/accounts-v1', '?product=p1&operation=old', 'a b/c');
    expect(address).toBe('/documentation/accounts-v1?product=p1&operation=a+b%2Fc#operation/a%20b%2Fc');
    const url = new URL(address, 'http://portal.test');
    expect(deepLinkedOperation(url.search, url.hash)).toBe('a b/c');
    expect(deepLinkedOperation(url.search, '')).toBe('a b/c');
  });

  it('reads the fragment before the query, and neither when they name nothing', () => {
    expect(deepLinkedOperation('?operation=fromQuery', '#operation/fromHash')).toBe('fromHash');
    expect(deepLinkedOperation('', '#operation/get-accounts-accountId')).toBe('get-accounts-accountId');
    expect(deepLinkedOperation('', '#operation/%E0%A4%A')).toBe('%E0%A4%A');
    expect(deepLinkedOperation('?operation=', '#operation/')).toBeNull();
    expect(deepLinkedOperation('', '#features')).toBeNull();
  });

  it('preloads a deep-linked operation only by alias', () => {
    expect(firstDocumentationRequests('accounts-v1', 'getBalances')).toEqual([
      '/jsonapi/node/api_documentation/accounts-v1?include=field_products%2Cfield_products.field_image%2Cfield_change_log',
      '/api/apidocs/accounts-v1/index',
      '/api/apidocs/accounts-v1/operations/getBalances',
    ]);
    expect(firstDocumentationRequests('0f8fad5b-d9cb-469f-a165-70867728950e', 'getBalances')).toHaveLength(1);
  });
});

describe('the reference count label, one for the first screen and the app', () => {
  const say = (message: CountMessage, count: number) =>
    ({
      operationsCount: `${count} operations`,
      operationsCount_one: `${count} operation`,
      webhooksCount: `${count} webhooks`,
      webhooksCount_one: `${count} webhook`,
    })[message];
  it('says each kind in its number, and never 0 operations for a webhooks-only document', () => {
    expect(countLabel({ operations: 1, webhooks: 0 }, say)).toBe('1 operation');
    expect(countLabel({ operations: 334, webhooks: 0 }, say)).toBe('334 operations');
    expect(countLabel({ operations: 12, webhooks: 1 }, say)).toBe('12 operations · 1 webhook');
    expect(countLabel({ operations: 0, webhooks: 2 }, say)).toBe('2 webhooks');
    expect(countLabel({ operations: 0, webhooks: 0 }, say)).toBe('0 operations');
  });
});
