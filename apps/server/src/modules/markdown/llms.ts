import { format } from '@portico/contracts/format';
import { localizedPath } from '@portico/contracts/locale-path';
import { DEFAULT_LOCALE, LOCALE_NAMES, LOCALES, type Locale } from '@portico/contracts/locales';
import type { Db } from '../../db/client.ts';
import { siteTitle } from '../../lib/i18n.ts';
import { translated } from '../../lib/translations.ts';
import { catalogTitles, publicDocumentations, publicProducts } from '../catalog/service.ts';
import { articleTranslation, FAQ_PAGE, publicArticles, publicFaqs } from '../content/service.ts';
import { pageTranslation, publicPages } from '../pages/service.ts';
import { markdownLabels } from './labels.ts';

/** One entry of llms.txt: the page's title, its Markdown address, a short description. */
export interface LlmsEntry {
  title: string;
  /** The page's path without a language's prefix (the Markdown is at the path + `.md`). */
  path: string;
  description: string;
}

export interface LlmsSection {
  name: string;
  entries: LlmsEntry[];
}

/** Link text: brackets escaped, on one line. */
const text = (value: string) =>
  value
    .replace(/\s+/g, ' ')
    .replace(/([[\]])/g, '\\$1')
    .trim();

/**
 * Every public page with a Markdown version, by section (llms.txt's and llms-full.txt's order), in
 * `locale`: the items' translated titles and descriptions where they have them (as their pages
 * and their Markdown show them, decision 063), the sections' words in the language.
 */
export async function llmsSections(db: Db, locale: Locale = DEFAULT_LOCALE): Promise<LlmsSection[]> {
  const [docs, products, articles, pages, faqs] = await Promise.all([
    publicDocumentations(db),
    publicProducts(db),
    publicArticles(db),
    publicPages(db),
    publicFaqs(db),
  ]);
  const { products: P, markdown: M, content: C } = markdownLabels(locale);
  const [titles, shownArticles, shownPages] = await Promise.all([
    catalogTitles(
      db,
      { products: products.map((p) => p.uuid), documentations: docs.map((d) => d.uuid) },
      locale,
    ),
    translated(
      db,
      'article',
      articles,
      (a) => a.uuid,
      locale,
      (a, t) => ({ ...a, ...articleTranslation(t) }),
      (a) => a,
    ),
    translated(
      db,
      'page',
      pages,
      (p) => p.uuid,
      locale,
      (p, t) => ({ ...p, title: pageTranslation(t)?.title ?? p.title }),
      (p) => p,
    ),
  ]);
  const sections: LlmsSection[] = [
    {
      name: M.sectionApis,
      entries: docs.map((d) => ({
        title: format(P.documentationTitle, { title: titles.documentations.get(d.uuid) ?? d.title }),
        path: `/documentation/${encodeURIComponent(d.alias)}`,
        description: d.version ? format(P.version, { version: d.version }) : '',
      })),
    },
    {
      name: M.sectionProducts,
      entries: products.map((p) => ({
        title: titles.products.get(p.uuid) ?? p.title,
        path: `/apiProduct/${encodeURIComponent(p.alias)}`,
        description: [
          p.version ? format(P.version, { version: p.version }) : '',
          p.deprecated ? P.deprecatedTag : '',
        ]
          .filter(Boolean)
          .join(', '),
      })),
    },
    {
      name: M.sectionArticles,
      entries: shownArticles.map((a) => ({ title: a.title, path: a.path, description: a.description })),
    },
    {
      name: M.sectionPages,
      entries: shownPages.map((p) => ({ title: p.title, path: p.alias, description: '' })),
    },
    {
      name: M.sectionFaq,
      entries: faqs.length
        ? [
            {
              title: C.faqTitle,
              path: FAQ_PAGE,
              description: format(faqs.length === 1 ? M.faqCount_one : M.faqCount, { count: faqs.length }),
            },
          ]
        : [],
    },
  ];
  return sections.filter((s) => s.entries.length > 0);
}

/**
 * llms.txt (https://llmstxt.org) in `locale`: the site's name, a summary and the same list in the
 * other languages, then a list per section, each link the page's Markdown in that language.
 */
export function llmsText(sections: LlmsSection[], origin: string, locale: Locale = DEFAULT_LOCALE): string {
  const M = markdownLabels(locale).markdown;
  const others = LOCALES.filter((l) => l !== locale)
    .map((l) => `[${LOCALE_NAMES[l]}](${origin}${localizedPath(l, '/llms.txt')})`)
    .join(', ');
  const out = [`# ${siteTitle(locale)}`, `> ${M.llmsSummary}`];
  if (others) out.push(format(M.otherLanguages, { links: others }));
  for (const section of sections) {
    out.push(
      `## ${section.name}`,
      section.entries
        .map((e) => {
          const description = e.description.replace(/\s+/g, ' ').trim();
          return `- [${text(e.title)}](${origin}${localizedPath(locale, e.path)}.md)${description ? `: ${description}` : ''}`;
        })
        .join('\n'),
    );
  }
  return out.join('\n\n') + '\n';
}
