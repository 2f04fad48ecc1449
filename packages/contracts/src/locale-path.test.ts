import { describe, expect, it } from 'vitest';
import { alternatePaths, localeBasename, localizedPath, splitLocalePath } from './locale-path.ts';

describe('the language in the URL', () => {
  it('is a prefix for German and none for English', () => {
    expect(splitLocalePath('/de/apiProducts')).toEqual({ locale: 'de', path: '/apiProducts' });
    expect(splitLocalePath('/de/')).toEqual({ locale: 'de', path: '/' });
    expect(splitLocalePath('/de')).toEqual({ locale: 'de', path: '/' });
    expect(splitLocalePath('/apiProducts')).toEqual({ locale: 'en', path: '/apiProducts' });
    // Not a prefix: a longer first segment, English's code, an unknown language.
    expect(splitLocalePath('/demo')).toEqual({ locale: 'en', path: '/demo' });
    expect(splitLocalePath('/en/faq-page')).toEqual({ locale: 'en', path: '/en/faq-page' });
    expect(splitLocalePath('/fr/faq-page')).toEqual({ locale: 'en', path: '/fr/faq-page' });
  });

  it('is written back the same way', () => {
    expect(localizedPath('de', '/')).toBe('/de/');
    expect(localizedPath('de', '/organizations')).toBe('/de/organizations');
    expect(localizedPath('en', '/organizations')).toBe('/organizations');
    expect(localeBasename('de')).toBe('/de');
    expect(localeBasename('en')).toBe('');
    expect(alternatePaths('/faq-page')).toEqual([
      { locale: 'en', path: '/faq-page' },
      { locale: 'de', path: '/de/faq-page' },
    ]);
  });
});
