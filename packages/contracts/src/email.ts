/**
 * The e-mail address rule, without zod: the web app checks addresses as they are typed on every
 * page (the footer's newsletter form) and must not load zod (24 KiB brotli) for it. The pattern is
 * zod 4's own `z.email()` default, and the schemas that check the same fields on the server use it
 * explicitly (site.ts newsletterSchema), so both sides accept exactly the same addresses
 * (email.test.ts compares them).
 */
export const EMAIL_PATTERN =
  /^(?:[A-Za-z0-9_'+-]+\.)*[A-Za-z0-9_'+-]*[A-Za-z0-9_+-]@(?:[A-Za-z0-9][A-Za-z0-9-]*\.)+[A-Za-z]{2,}$/;

/** The longest address the newsletter accepts (RFC 5321's path limit). */
export const NEWSLETTER_EMAIL_MAX = 254;

/** What newsletterSchema accepts as `email`, for a form that checks while the user types. */
export function isNewsletterEmail(value: string): boolean {
  return value.length <= NEWSLETTER_EMAIL_MAX && EMAIL_PATTERN.test(value);
}
