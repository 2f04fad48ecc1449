import { describe, expect, it } from 'vitest';
import { negotiateLocale } from './locales.ts';

describe('negotiateLocale', () => {
  it('takes the best acceptable language by quality, then by order', () => {
    expect(negotiateLocale('de-DE,de;q=0.9,en;q=0.8')).toBe('de');
    expect(negotiateLocale('fr-CH, fr;q=0.9, en;q=0.8, de;q=0.7, *;q=0.5')).toBe('en');
    expect(negotiateLocale('en;q=0.5, de;q=0.6')).toBe('de');
    expect(negotiateLocale('DE-at')).toBe('de');
  });
  it('falls back to English for nothing acceptable, refused languages and garbage', () => {
    expect(negotiateLocale(undefined)).toBe('en');
    expect(negotiateLocale('')).toBe('en');
    expect(negotiateLocale('fr, it')).toBe('en');
    expect(negotiateLocale('de;q=0, fr')).toBe('en');
    expect(negotiateLocale(';;;,,q=x')).toBe('en');
  });
});
