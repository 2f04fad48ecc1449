import { describe, expect, it } from 'vitest';
import { LOCALE_COOKIE } from '@portico/contracts/locale-path';
import { requestLocale } from './locale.ts';

describe('requestLocale', () => {
  it("prefers the account's language, then the chosen one, then Accept-Language", () => {
    const headers = { 'accept-language': 'de-DE,de;q=0.9', cookie: `a=1; ${LOCALE_COOKIE}=en` };
    expect(requestLocale({ headers }, 'de')).toBe('de');
    expect(requestLocale({ headers })).toBe('en');
    expect(requestLocale({ headers: { 'accept-language': 'de' } })).toBe('de');
    expect(requestLocale({ headers: {}, cookies: { [LOCALE_COOKIE]: 'de' } })).toBe('de');
  });
  it('ignores unknown values', () => {
    expect(requestLocale({ headers: { cookie: `${LOCALE_COOKIE}=xx` } }, 'fr')).toBe('en');
  });
});
