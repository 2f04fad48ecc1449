import { describe, expect, it } from 'vitest';
import { API_IMPORT_ALIAS, defaultApiAlias } from './api-import.ts';

describe('defaultApiAlias: the alias an imported file gets from its name', () => {
  it('drops the .json/.yaml/.yml extension and turns other dots into hyphens', () => {
    expect(defaultApiAlias('braze.com.json')).toBe('braze-com');
    expect(defaultApiAlias('fec.gov.yaml')).toBe('fec-gov');
    expect(defaultApiAlias('openpolicy.local.YML')).toBe('openpolicy-local');
    expect(defaultApiAlias('petstore.yaml')).toBe('petstore');
    expect(defaultApiAlias('accounts-v1.2.json')).toBe('accounts-v1-2');
    expect(defaultApiAlias('openapi.txt')).toBe('openapi-txt');
  });

  it('takes the base name, lower case, and what an alias refuses as one hyphen', () => {
    expect(defaultApiAlias('/tmp/specs/My API (v2).yaml')).toBe('my-api-v2');
    expect(defaultApiAlias('C:\\specs\\Stripe_Spec3.json')).toBe('stripe_spec3');
    expect(defaultApiAlias('.hidden.yaml')).toBe('hidden');
    expect(defaultApiAlias(`${'a'.repeat(99)}.b.yaml`)).toBe('a'.repeat(99));
  });

  it('gives an alias the import accepts, or the name itself for the check to refuse', () => {
    for (const name of ['braze.com.json', 'My API (v2).yaml', `${'x.'.repeat(80)}json`, 'über.yaml']) {
      expect(defaultApiAlias(name), name).toMatch(API_IMPORT_ALIAS);
    }
    expect(defaultApiAlias('日本.yaml')).toBe('日本');
  });
});
