import type { OperationIndex } from '@portico/contracts/catalog';
import { describe, expect, it } from 'vitest';
import { t } from '../../../lib/i18n';
import { buildRows, countLabel, countRows } from './operation-rows';

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

  it('counts an operation under several tags once', () => {
    const shared = op('getPayment', 'get', '/payments/{id}', 'Get a payment');
    const tagged: OperationIndex = {
      ...index,
      tags: [...index.tags, { name: 'Reporting', description: null, operations: [shared] }],
    };
    const rows = buildRows(tagged, '');
    expect(rows.filter((r) => r.kind === 'op')).toHaveLength(4);
    expect(countRows(rows)).toEqual({ operations: 3, webhooks: 0 });
  });

  it('lists webhooks last under their own heading, and searches them', () => {
    const hook = { ...op('paymentSettled', 'post', 'paymentSettled', 'A payment settled'), webhook: true };
    const withHooks: OperationIndex = { ...index, webhooks: [hook], webhookCount: 1 };
    const rows = buildRows(withHooks, '');
    expect(rows.slice(-2).map((r) => r.id)).toEqual(['webhooks:', 'webhooks::paymentSettled']);
    expect(countRows(rows)).toEqual({ operations: 3, webhooks: 1 });
    expect(buildRows(withHooks, 'settled').map((r) => r.id)).toEqual([
      'webhooks:',
      'webhooks::paymentSettled',
    ]);
    expect(buildRows(withHooks, 'webhook')).toHaveLength(2);
  });

  it("says '1 operation' / 'N operations' and never '0 operations' for webhooks only", () => {
    expect(countLabel(t, { operations: 1, webhooks: 0 })).toBe('1 operation');
    expect(countLabel(t, { operations: 0, webhooks: 0 })).toBe('0 operations');
    expect(countLabel(t, { operations: 334, webhooks: 0 })).toBe('334 operations');
    expect(countLabel(t, { operations: 12, webhooks: 1 })).toBe('12 operations · 1 webhook');
    expect(countLabel(t, { operations: 0, webhooks: 2 })).toBe('2 webhooks');
  });
});
