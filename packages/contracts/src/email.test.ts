import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { isNewsletterEmail, NEWSLETTER_EMAIL_MAX } from './email.ts';
import { newsletterSchema } from './site.ts';

const samples = [
  'dev@example.com',
  'first.last+tag@sub.example.org',
  "o'brien@example.ie",
  'a@b.co',
  '',
  'plain',
  '@example.com',
  'dev@',
  'dev@example',
  'dev@example.c',
  '.dev@example.com',
  'dev.@example.com',
  'de..v@example.com',
  'dev@-example.com',
  'dev @example.com',
  'dév@example.com',
  `${'a'.repeat(NEWSLETTER_EMAIL_MAX - 12)}@example.com`,
  `${'a'.repeat(NEWSLETTER_EMAIL_MAX - 11)}@example.com`,
];

describe('isNewsletterEmail: the newsletter schema without zod', () => {
  it('accepts exactly what newsletterSchema accepts', () => {
    for (const email of samples) {
      expect(isNewsletterEmail(email), email).toBe(newsletterSchema.safeParse({ email }).success);
    }
    fc.assert(
      fc.property(fc.oneof(fc.emailAddress(), fc.string()), (email) => {
        expect(isNewsletterEmail(email)).toBe(newsletterSchema.safeParse({ email }).success);
      }),
    );
  });

  it("uses zod's own e-mail rule, so the other e-mail fields agree with it", () => {
    fc.assert(
      fc.property(fc.oneof(fc.emailAddress(), fc.string()), (email) => {
        const zod = z.email().max(NEWSLETTER_EMAIL_MAX).safeParse(email).success;
        expect(isNewsletterEmail(email)).toBe(zod);
      }),
    );
  });
});
