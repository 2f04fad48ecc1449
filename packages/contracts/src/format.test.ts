import { describe, expect, it } from 'vitest';
import { format } from './format.ts';
import { en } from './messages.ts';

describe('format: {{name}} placeholders of the catalogue', () => {
  it('fills every occurrence of each placeholder, numbers included', () => {
    expect(format('{{a}} and {{b}}, then {{a}} again: {{n}}', { a: 'x', b: 'y', n: 3 })).toBe(
      'x and y, then x again: 3',
    );
    expect(format(en.identity.providerRefused, { error: 'access_denied' })).toBe(
      'The identity provider refused the sign-in: access_denied',
    );
  });

  it('inserts values literally: no $ patterns and no second pass over them', () => {
    expect(format('Hello {{name}}', { name: "$& $' $1" })).toBe("Hello $& $' $1");
    expect(format('{{a}}{{b}}', { a: '{{b}}', b: 'B' })).toBe('{{b}}B');
  });

  it('keeps a placeholder without a value and a text without placeholders', () => {
    expect(format('Hi {{who}}' as string, {})).toBe('Hi {{who}}');
    expect(format(en.identity.signInTitle, {})).toBe('Sign in');
  });
});
