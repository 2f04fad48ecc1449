import { describe, expect, it } from 'vitest';
import { exampleAllowed } from './catalog.ts';

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
