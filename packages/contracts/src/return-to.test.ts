import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { safeReturnTo } from './return-to.ts';

describe('safeReturnTo', () => {
  it.each([
    ['/', '/'],
    ['/apps?organization=1#top', '/apps?organization=1#top'],
    ['/a/../b', '/b'],
    ['/product/x%2Fy', '/product/x%2Fy'],
  ])('keeps the path %s as %s', (value, expected) => expect(safeReturnTo(value)).toBe(expected));

  it.each([
    '//evil.example',
    '/\\evil.example',
    '/\t/evil.example',
    '/\n/evil.example',
    '/\r\n/evil.example',
    '\\/evil.example',
    '/.//evil.example',
    '/%09/evil.example/../..//evil.example',
    'https://evil.example/',
    'javascript:alert(1)',
    'apps',
    '',
    '/\u0000',
    '/x\u0085',
    `/${'a'.repeat(2000)}`,
    undefined,
    42,
  ])('refuses %j', (value) => expect(safeReturnTo(value)).toBeNull());

  it('never returns something a browser resolves to another origin', () => {
    const piece = fc.constantFrom(
      '/',
      '\\',
      '.',
      '..',
      '\t',
      '\n',
      'evil.example',
      '%2F',
      '%5C',
      '@',
      ':',
      '?',
      '#',
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 8 }), (pieces) => {
        const result = safeReturnTo(`/${pieces.join('')}`);
        if (result === null) return true;
        return new URL(result, 'https://portal.example/page').origin === 'https://portal.example';
      }),
    );
  });
});
