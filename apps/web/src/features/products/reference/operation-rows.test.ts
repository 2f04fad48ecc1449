import type { OperationIndex } from '@portico/contracts/catalog';
import { describe, expect, it } from 'vitest';
import { buildRows, operationHash, operationKeyFromHash } from './operation-rows';

const op = (key: string, method: 'get' | 'post', path: string, summary: string) => ({
  key,
  method,
  path,
  summary,
  operationId: key,
  deprecated: false,
  secured: true,
  scopes: [],
});

const index: OperationIndex = {
  alias: 'accounts-v1',
  title: 'Accounts API',
  version: '1.0.0',
  description: null,
  servers: [],
  contentHash: 'x',
  operationCount: 3,
  securitySchemes: [],
  tags: [
    {
      name: 'Accounts',
      description: null,
      operations: [op('listAccounts', 'get', '/accounts', 'List accounts')],
    },
    {
      name: 'Payments',
      description: null,
      operations: [
        op('createPayment', 'post', '/payments', 'Create a payment'),
        op('getPayment', 'get', '/payments/{id}', 'Get a payment'),
      ],
    },
  ],
};

describe('reference rows', () => {
  it('groups operations under their tags', () => {
    const rows = buildRows(index, '');
    expect(rows.map((r) => r.id)).toEqual([
      'tag:Accounts',
      'Accounts::listAccounts',
      'tag:Payments',
      'Payments::createPayment',
      'Payments::getPayment',
    ]);
  });

  it('filters by every word, over method, path, summary and tag, and drops empty tags', () => {
    expect(buildRows(index, 'POST payments').map((r) => r.id)).toEqual([
      'tag:Payments',
      'Payments::createPayment',
    ]);
    expect(buildRows(index, 'accounts').map((r) => r.id)).toEqual(['tag:Accounts', 'Accounts::listAccounts']);
    expect(buildRows(index, 'nothing-like-this')).toEqual([]);
  });

  it('reads and writes deep links', () => {
    expect(operationKeyFromHash('#operation/get-accounts-accountId')).toBe('get-accounts-accountId');
    expect(operationKeyFromHash(operationHash('a b'))).toBe('a b');
    expect(operationKeyFromHash('#features')).toBeNull();
    expect(operationKeyFromHash('#operation/')).toBeNull();
  });
});
