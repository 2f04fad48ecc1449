import { describe, expect, it } from 'vitest';
import { en } from '@portico/contracts/messages';
import { t, type MessageKey } from './i18n';

describe('t', () => {
  it('finds a message by its dotted key', () => {
    expect(t('site.title')).toBe(en.site.title);
  });

  it('fills the placeholders of the catalogue', () => {
    expect(t('user.welcome', { name: 'Ada & Co' })).toBe('Welcome Ada & Co');
    expect(t('products.operationsCount', { count: 3 })).toBe('3 operations');
  });

  it('shows an unknown key as itself', () => {
    expect(t('site.nothing' as MessageKey)).toBe('site.nothing');
    expect(t('site' as MessageKey)).toBe('site');
  });
});
