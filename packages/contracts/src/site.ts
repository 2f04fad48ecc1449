import { z } from 'zod';
import { EMAIL_PATTERN, NEWSLETTER_EMAIL_MAX } from './email.ts';

/**
 * Site content of spec B section 3: the block layout (carousel, banners, footer) and the cookie
 * consent texts. The server validates content/ against these on import; the web app reads the
 * same shapes.
 */
export const linkSchema = z.object({
  title: z.string().min(1),
  url: z.string().min(1),
  external: z.boolean().default(false),
});
export type SiteLink = z.infer<typeof linkSchema>;

export const carouselItemSchema = z.object({
  key: z.string().min(1),
  title: z.string().default(''),
  text: z.string().default(''),
  image_url: z.string().min(1),
  /** Seconds the slide stays before the carousel advances. */
  visibleFor: z.number().int().positive(),
  link: z.object({ url: z.string().min(1), external: z.boolean().default(false) }).optional(),
});
export type CarouselItem = z.infer<typeof carouselItemSchema>;

export const bottomBannerSchema = z.object({
  title: z.string().min(1),
  /** HTML, sanitized by the web app before it is shown. */
  description: z.string().default(''),
  image_url: z.string().optional(),
});
export type BottomBanner = z.infer<typeof bottomBannerSchema>;

export const footerItemSchema = z.object({ title: z.string().min(1), links: z.array(linkSchema) });
export type FooterItem = z.infer<typeof footerItemSchema>;

/** A block of the Getting Started timeline (spec B 2.3, 3); the last one is the authorization block. */
export const gettingStartedBlockSchema = z.object({
  title: z.string().min(1),
  /** HTML, sanitized by the web app before it is shown. */
  description: z.string().default(''),
  link: z
    .object({ url: z.string().min(1), title: z.string().min(1), external: z.boolean().default(false) })
    .optional(),
});
export type GettingStartedBlock = z.infer<typeof gettingStartedBlockSchema>;

/** A promotional banner of the home page (spec B 2.2: the race and studio banners). */
export const promoBannerSchema = z.object({
  key: z.string().min(1),
  title: z.string().min(1),
  text: z.string().default(''),
  image_url: z.string().optional(),
  link: linkSchema.optional(),
});
export type PromoBanner = z.infer<typeof promoBannerSchema>;

export const blockLayoutSchema = z.object({
  carousel: z.array(carouselItemSchema).default([]),
  awards: z.array(linkSchema).default([]),
  bottomBanners: z.array(bottomBannerSchema).default([]),
  footer: z.array(footerItemSchema).default([]),
  social: z.array(linkSchema).default([]),
  gettingStarted: z.array(gettingStartedBlockSchema).default([]),
  promoBanners: z.array(promoBannerSchema).default([]),
});
export type BlockLayout = z.infer<typeof blockLayoutSchema>;

export const cookiesConsentSchema = z.object({
  popup: z.object({ body: z.string().min(1), accept: z.string().min(1), dismiss: z.string().min(1) }),
  labelCheckBox: z.string().min(1),
  expiryDays: z.number().int().positive(),
});
export type CookiesConsent = z.infer<typeof cookiesConsentSchema>;

/** The web app checks the same rule without zod: email.ts isNewsletterEmail. */
export const newsletterSchema = z.object({
  email: z.email({ error: 'Invalid email', pattern: EMAIL_PATTERN }).max(NEWSLETTER_EMAIL_MAX),
});
