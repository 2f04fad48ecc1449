import { describe, expect, it } from 'vitest';
import { compareDocuments } from './diff.ts';
import type { Obj } from './operations.ts';

/** A 3.1 document with one POST /nodes whose request and response are the cyclic schema Node. */
function doc(node: Obj, body: Obj = {}, security?: Obj[]): Obj {
  return {
    openapi: '3.1.0',
    info: { title: 'Nodes', version: '1' },
    components: {
      schemas: { Node: node },
      securitySchemes: {
        o: { type: 'oauth2', flows: { clientCredentials: { tokenUrl: '/t', scopes: {} } } },
      },
    },
    paths: {
      '/nodes': {
        post: {
          ...(security ? { security } : {}),
          requestBody: {
            ...body,
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Node' } } },
          },
          responses: {
            '200': {
              description: 'OK',
              content: { 'application/json': { schema: { $ref: '#/components/schemas/Node' } } },
            },
          },
        },
      },
    },
  };
}

const node = (extra: Obj = {}, size: Obj = { type: ['integer'] }): Obj => ({
  type: 'object',
  properties: { size, child: { $ref: '#/components/schemas/Node' } },
  ...extra,
});

describe('compareDocuments', () => {
  it('finds request fields now required, narrowed types and a required body; cycles end', () => {
    const before = doc(node({}, { type: ['number', 'string'] }));
    const after = doc(node({ required: ['size'] }, { type: 'integer' }), { required: true }, [{ o: ['w'] }]);
    const { changed, breakingCount } = compareDocuments(before, after);
    expect(changed).toHaveLength(1);
    expect(changed[0]!.changes.map((c) => [c.code, c.breaking])).toEqual([
      ['requestBodyNowRequired', true],
      ['requestFieldNowRequired', true],
      ['requestFieldTypeChanged', true],
      ['responseFieldTypeChanged', true],
      ['scopeAdded', true],
    ]);
    expect(changed[0]!.changes[2]!.text).toBe(
      'Request field ‘size’ type changed from number | string to integer',
    );
    expect(breakingCount).toBe(5);
  });

  it('a widened request type, an added optional field and the same document are no change', () => {
    const before = doc(node());
    const after = doc(node({}, { type: ['integer'] }));
    expect(compareDocuments(before, before)).toEqual({
      added: [],
      removed: [],
      changed: [],
      breakingCount: 0,
    });
    expect(
      compareDocuments(doc(node({}, { type: 'integer' })), doc(node({}, { type: 'number' }))).changed,
    ).toEqual([
      expect.objectContaining({ changes: [expect.objectContaining({ code: 'responseFieldTypeChanged' })] }),
    ]);
    expect(compareDocuments(before, after).changed).toEqual([]);
  });

  it('a new API: every operation added, nothing breaking', () => {
    const summary = compareDocuments(null, doc(node()));
    expect(summary.added.map((op) => op.endpoint)).toEqual(['POST /nodes']);
    expect(summary.breakingCount).toBe(0);
  });
});
