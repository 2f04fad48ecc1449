import { en } from '@portico/contracts/messages';
import { format } from '@portico/contracts/format';
import type { Db } from '../../db/client.ts';
import { publicDocumentations, publicProducts } from '../catalog/service.ts';
import { FAQ_PAGE, publicArticles, publicFaqs } from '../content/service.ts';
import { publicPages } from '../pages/service.ts';

const M = en.markdown;

/** One entry of llms.txt: the page's title, its Markdown address, a short description. */
export interface LlmsEntry {
  title: string;
  /** The page's path (the Markdown is at the path + `.md`). */
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

/** Every public page with a Markdown version, by section (llms.txt's and llms-full.txt's order). */
export async function llmsSections(db: Db): Promise<LlmsSection[]> {
  const [docs, products, articles, pages, faqs] = await Promise.all([
    publicDocumentations(db),
    publicProducts(db),
    publicArticles(db),
    publicPages(db),
    publicFaqs(db),
  ]);
  const sections: LlmsSection[] = [
    {
      name: M.sectionApis,
      entries: docs.map((d) => ({
        title: format(en.products.documentationTitle, { title: d.title }),
        path: `/documentation/${encodeURIComponent(d.alias)}`,
        description: d.version ? format(en.products.version, { version: d.version }) : '',
      })),
    },
    {
      name: M.sectionProducts,
      entries: products.map((p) => ({
        title: p.title,
        path: `/apiProduct/${encodeURIComponent(p.alias)}`,
        description: [
          p.version ? format(en.products.version, { version: p.version }) : '',
          p.deprecated ? en.products.deprecatedTag : '',
        ]
          .filter(Boolean)
          .join(', '),
      })),
    },
    {
      name: M.sectionArticles,
      entries: articles.map((a) => ({ title: a.title, path: a.path, description: a.description })),
    },
    {
      name: M.sectionPages,
      entries: pages.map((p) => ({ title: p.title, path: p.alias, description: '' })),
    },
    {
      name: M.sectionFaq,
      entries: faqs.length
        ? [
            {
              title: en.content.faqTitle,
              path: FAQ_PAGE,
              description: format(faqs.length === 1 ? M.faqCount_one : M.faqCount, { count: faqs.length }),
            },
          ]
        : [],
    },
  ];
  return sections.filter((s) => s.entries.length > 0);
}

/** llms.txt (https://llmstxt.org): the site's name, a summary, then a list per section. */
export function llmsText(sections: LlmsSection[], origin: string): string {
  const out = [`# ${en.site.title}`, `> ${M.llmsSummary}`];
  for (const section of sections) {
    out.push(
      `## ${section.name}`,
      section.entries
        .map((e) => {
          const description = e.description.replace(/\s+/g, ' ').trim();
          return `- [${text(e.title)}](${origin}${e.path}.md)${description ? `: ${description}` : ''}`;
        })
        .join('\n'),
    );
  }
  return out.join('\n\n') + '\n';
}
