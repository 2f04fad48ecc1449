import type { OperationIndex, OperationSummary } from '@portico/contracts/catalog';
import { describe, expect, it } from 'vitest';
import { escapeHtml } from '../../lib/html.ts';
import { embeddedOperationKeys, renderFirstScreen } from './first-screen.ts';

const op = (key: string, path: string, summary: string | null, extra: Partial<OperationSummary> = {}) =>
  ({
    key,
    method: 'get',
    path,
    summary,
    operationId: key,
    deprecated: false,
    secured: true,
    scopes: [],
    ...extra,
  }) satisfies OperationSummary;

const index = (tags: OperationIndex['tags'], extra: Partial<OperationIndex> = {}): OperationIndex => ({
  alias: 'pets',
  title: 'Pets',
  version: '2.0',
  description: null,
  servers: [],
  contentHash: 'h',
  operationCount: tags.reduce((n, t) => n + t.operations.length, 0),
  tags,
  securitySchemes: [],
  ...extra,
});

describe('the documentation first screen', () => {
  it('escapes every text of the document', () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
    const html = renderFirstScreen({
      pathname: '/documentation/pets',
      title: '<img src=x onerror=alert(1)>',
      index: index([
        {
          name: '<b>tag</b>',
          description: null,
          operations: [op('k"><script>', '/pets/<id>', '<script>alert(1)</script>')],
        },
      ]),
    });
    expect(html).not.toMatch(/<script|<img|<b>/);
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt; Documentation');
    expect(html).toContain('data-operation-key="k&quot;&gt;&lt;script&gt;"');
    expect(html).toContain(
      'href="/documentation/pets?operation=k%22%3E%3Cscript%3E#operation/k%22%3E%3Cscript%3E"',
    );
  });

  it('lists the first rows only, tag headings included, then the webhooks', () => {
    const many = Array.from({ length: 40 }, (_, i) => op(`op${i}`, `/p/${i}`, null));
    const html = renderFirstScreen({
      pathname: '/documentation/pets',
      title: 'Pets',
      index: index([{ name: 'All', description: null, operations: many }]),
      rows: 25,
    });
    expect(html.match(/class="fs-operation"/g)).toHaveLength(25);
    expect(html).toContain('<p class="fs-dim fs-count">40 operations</p>');
    expect(html).toContain('<p class="fs-dim">Version 2.0</p>');

    const hooks = renderFirstScreen({
      pathname: '/documentation/pets',
      title: 'Pets',
      index: index([], {
        operationCount: 0,
        webhooks: [op('newPet', 'newPet', 'A pet', { webhook: true })],
        webhookCount: 1,
      }),
    });
    expect(hooks).toContain('<p class="fs-dim fs-count">1 webhook</p>');
    expect(hooks).toContain('<h3 class="fs-tag">Webhooks</h3>');
    expect(hooks).toContain('data-operation-key="newPet"');
  });

  it('embeds the details of the first operations, each once, and links the others', () => {
    const shared = op('shared', '/s', null);
    const idx = index([
      { name: 'A', description: null, operations: [shared, op('a1', '/a1', null)] },
      {
        name: 'B',
        description: null,
        operations: [shared, op('b1', '/b1', null), op('b2', '/b2', null), op('b3', '/b3', null)],
      },
    ]);
    expect(embeddedOperationKeys(idx)).toEqual(['shared', 'a1', 'b1', 'b2']);
    const detail = {
      ...op('a1', '/a1', 'First'),
      description: 'Line one\n<b>two</b>',
      tags: ['A'],
      server: 'http://x',
      parameters: [],
      requestBody: null,
      responses: [{ status: '200', description: 'Fine', headers: {}, content: {} }],
      security: [],
      samples: [],
      refs: {},
    };
    const html = renderFirstScreen({
      pathname: '/documentation/pets',
      title: 'Pets',
      index: idx,
      embedded: new Map([['a1', detail]]),
    });
    expect(html).toContain(
      '<details class="fs-row" data-operation-key="a1"><summary class="fs-operation"><span class="fs-method fs-get">GET</span><span class="fs-path">/a1</span></summary>',
    );
    expect(html).toContain('<p class="fs-text">Line one\n&lt;b&gt;two&lt;/b&gt;</p>');
    expect(html).toContain('<li data-response="200"><strong>200</strong> Fine</li>');
    expect(html).toContain('<a class="fs-operation" data-operation-key="b1"');
  });
});
