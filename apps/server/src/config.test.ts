import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

describe('configuration', () => {
  it('applies defaults', () => {
    const c = loadConfig({});
    expect(c.port).toBe(3000);
    expect(c.publicUrl).toBe('http://localhost:3000');
    expect(c.publicUrlConfigured).toBe(false);
    expect(c.databaseUrl).toBeUndefined();
  });

  it('fails fast naming every bad variable', () => {
    expect(() => loadConfig({ PORT: 'abc', DATABASE_URL: 'mysql://x' })).toThrow(ConfigError);
    try {
      loadConfig({ PORT: 'abc', DATABASE_URL: 'mysql://x' });
    } catch (err) {
      expect((err as Error).message).toContain('PORT');
      expect((err as Error).message).toContain('DATABASE_URL: must be a postgres:// or postgresql:// URL');
    }
  });

  it('needs OIDC_ISSUER and OIDC_CLIENT_ID together', () => {
    expect(() => loadConfig({ OIDC_ISSUER: 'https://idp.example.com' })).toThrow(
      /OIDC_ISSUER and OIDC_CLIENT_ID/,
    );
  });
});
