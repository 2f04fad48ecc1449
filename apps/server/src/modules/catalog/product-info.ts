import { en } from '@portico/contracts/messages';
import { Marked } from 'marked';
import { cleanHtml } from '../../lib/content-html.ts';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v.trim() : null);

const escape = (text: string) =>
  text.replace(/[&<>"']/g, (c) => `&${{ '&': 'amp', '<': 'lt', '>': 'gt', '"': 'quot', "'": '#39' }[c]!};`);

const link = (href: string | null, text: string) =>
  href ? `<a href="${escape(href)}">${escape(text)}</a>` : escape(text);

const markdown = new Marked({ gfm: true });

/**
 * A product's description (HTML, sanitized like the content files' texts) from its OpenAPI
 * document's `info`: the description's CommonMark rendered (or the summary), then the contact,
 * the license and the external documentation (the document's top-level `externalDocs`, which
 * OpenAPI keeps beside `info`) as short lines with links.
 */
export function productDescriptionFromInfo(doc: Obj): string {
  const info = isObj(doc.info) ? doc.info : {};
  const parts: string[] = [];
  const description = str(info.description) ?? str(info.summary);
  if (description) parts.push(markdown.parse(description, { async: false }));

  const lines: string[] = [];
  if (isObj(info.contact)) {
    const { name, url, email } = info.contact;
    const links = [
      str(email) ? link(`mailto:${str(email)!}`, str(name) ?? str(email)!) : null,
      str(url) ? link(str(url), str(email) ? str(url)! : (str(name) ?? str(url)!)) : null,
    ].filter((x): x is string => x !== null);
    if (!links.length && str(name)) links.push(escape(str(name)!));
    if (links.length) lines.push(`<strong>${en.catalog.productContact}:</strong> ${links.join(' · ')}`);
  }
  if (isObj(info.license) && str(info.license.name)) {
    const id = str(info.license.identifier);
    const href = str(info.license.url) ?? (id ? `https://spdx.org/licenses/${id}.html` : null);
    lines.push(`<strong>${en.catalog.productLicense}:</strong> ${link(href, str(info.license.name)!)}`);
  }
  const external = isObj(doc.externalDocs)
    ? doc.externalDocs
    : isObj(info.externalDocs)
      ? info.externalDocs
      : null;
  if (external && str(external.url)) {
    const text = str(external.description) ?? str(external.url)!;
    lines.push(`<strong>${en.catalog.productExternalDocs}:</strong> ${link(str(external.url), text)}`);
  }
  if (lines.length) parts.push(`<p>${lines.join('<br>')}</p>`);
  return cleanHtml(parts.join('\n'));
}

const PALETTE = [
  ['#0b5394', '#6fa8dc'],
  ['#134f5c', '#76a5af'],
  ['#38761d', '#93c47d'],
  ['#7f6000', '#ffd966'],
  ['#783f04', '#f6b26b'],
  ['#660000', '#e06666'],
  ['#20124d', '#8e7cc3'],
  ['#4c1130', '#c27ba0'],
] as const;

/** FNV-1a: a stable number from a text, the same on every machine and run. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** Up to two initials of a title's words ('Petstore API' → 'PA'), letters and digits only. */
export function initials(title: string): string {
  const words = title.match(/[\p{L}\p{N}]+/gu) ?? [];
  const letters = words.slice(0, 2).map((w) => w[0]!.toUpperCase());
  return letters.join('') || '?';
}

/**
 * A product image for a product that came with none (created by `import-api`): a 200x200 SVG
 * made only from its title, so the same title always gives the same picture. Colours from a
 * fixed palette, shapes placed by the title's hash, the title's initials in the middle.
 */
export function generatedProductImage(title: string): string {
  const h = hash(title);
  const [dark, light] = PALETTE[h % PALETTE.length]!;
  const cx = 40 + ((h >>> 3) % 120);
  const cy = 40 + ((h >>> 10) % 120);
  const r = 50 + ((h >>> 17) % 40);
  const angle = (h >>> 24) % 90;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="200" height="200" viewBox="0 0 200 200" role="img" aria-label="${escape(title)}">`,
    `  <rect width="200" height="200" rx="24" fill="${light}"/>`,
    `  <circle cx="${cx}" cy="${cy}" r="${r}" fill="${dark}" opacity="0.15"/>`,
    `  <rect x="60" y="60" width="80" height="80" rx="12" fill="${dark}" opacity="0.1" transform="rotate(${angle} 100 100)"/>`,
    `  <text x="100" y="100" dy="0.35em" text-anchor="middle" font-family="Arial, Helvetica, sans-serif" font-size="64" font-weight="700" fill="${dark}">${escape(initials(title))}</text>`,
    '</svg>',
    '',
  ].join('\n');
}

/** Where a generated product image is served (catalog/plugin.ts), by the product's alias. */
export const generatedImageUrl = (productAlias: string) => `/catalog/generated-images/${productAlias}.svg`;
