import { describe, expect, it } from 'vitest';
import { createSecretBox, SecretKeyMismatchError } from './secret-box.ts';

describe('secret box', () => {
  it('opens what it sealed', () => {
    const box = createSecretBox('a-key-of-thirty-two-characters-or-more');
    expect(box.decrypt(box.encrypt('client secret'))).toBe('client secret');
  });

  it('says so when a secret was sealed under another key (instances without a shared SECRET_KEY)', () => {
    const sealed = createSecretBox('the-first-instance-key-0123456789').encrypt('client secret');
    const other = createSecretBox('the-second-instance-key-0123456789');
    expect(() => other.decrypt(sealed)).toThrow(SecretKeyMismatchError);
    expect(() => other.decrypt(sealed)).toThrow(/Instances on one database must share one SECRET_KEY/);
  });
});
