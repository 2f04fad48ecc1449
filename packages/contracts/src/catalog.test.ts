import { describe, expect, it } from 'vitest';
import { exampleAllowed, splitPseudoFragment } from './catalog.ts';

describe('exampleAllowed', () => {
  it("refuses an example that the schema's enum or const does not list", () => {
    // Azure's network-vmssPublicIpAddress: the example names a newer api-version than the enum.
    expect(exampleAllowed({ type: 'string', enum: ['2017-03-30'] }, '2018-10-01')).toBe(false);
    expect(exampleAllowed({ type: 'string', enum: ['2017-03-30'] }, '2017-03-30')).toBe(true);
    expect(exampleAllowed({ const: 'v1' }, 'v2')).toBe(false);
    expect(exampleAllowed({ const: { a: 1 } }, { a: 1 })).toBe(true);
  });

  it('compares scalars as text, and allows what it cannot check', () => {
    expect(exampleAllowed({ type: 'integer', enum: [10, 20] }, '20')).toBe(true);
    expect(exampleAllowed({ enum: [null, 'on'] }, 'on')).toBe(true);
    expect(exampleAllowed({ type: 'string' }, 'anything')).toBe(true);
    expect(exampleAllowed({ $ref: '#/components/schemas/Version' }, 'x')).toBe(true);
    expect(exampleAllowed(undefined, 'x')).toBe(true);
  });
});

describe('splitPseudoFragment', () => {
  it('splits the path from the terms a request must carry', () => {
    expect(splitPseudoFragment('/accounts/{id}')).toEqual({ path: '/accounts/{id}', terms: [] });
    expect(splitPseudoFragment('/#Action=AttachInstances')).toEqual({
      path: '/',
      terms: [{ name: 'Action', value: 'AttachInstances' }],
    });
    expect(splitPseudoFragment('/{Bucket}#notification')).toEqual({
      path: '/{Bucket}',
      terms: [{ name: 'notification' }],
    });
    expect(splitPseudoFragment('/2013-01-01/search#format=sdk&pretty=true&q').terms).toEqual([
      { name: 'format', value: 'sdk' },
      { name: 'pretty', value: 'true' },
      { name: 'q' },
    ]);
    expect(splitPseudoFragment('/files/{file_id}#').terms).toEqual([]);
  });
});
