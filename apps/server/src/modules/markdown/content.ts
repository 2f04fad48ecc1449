import { en } from '@portico/contracts/messages';
import { format } from '@portico/contracts/format';
import type { Db } from '../../db/client.ts';
import { findProduct, productDocumentations } from '../catalog/service.ts';
import { FAQ_PAGE, publicArticles, publicFaqs } from '../content/service.ts';
import { normalizeAlias, publicPage } from '../pages/service.ts';
import { htmlToMarkdown } from './html.ts';

/**
 * The Markdown of the portal's content pages, from the data their pages show and only what every
 * visitor may read (the modules' services): products not retired, published public articles,
 * published pages, published FAQ questions.
 */

const M = en.markdown;

/** `/apiProduct/<uuid or alias>` (the web app's product page). */
export async function productMarkdown(
  db: Db,
  origin: string,
  idOrAlias: string,
): Promise<string | undefined> {
  const product = await findProduct(db, idOrAlias);
  if (!product || product.retired) return undefined;
  const out = [`# ${product.title}`];
  if (product.version) out.push(format(en.products.version, { version: product.version }));
  if (product.deprecated) out.push(`_${M.deprecatedProduct}_`);
  out.push(format(M.htmlPage, { url: `${origin}/apiProduct/${encodeURIComponent(product.alias)}` }));
  const description = htmlToMarkdown(product.description, origin);
  if (description) out.push(description);
  const docs = await productDocumentations(db, product.id);
  if (docs.length) {
    out.push(
      `## ${M.documentations}`,
      docs
        .map(
          (d) =>
            `- [${format(en.products.documentationTitle, { title: d.title })}](${origin}/documentation/${encodeURIComponent(d.alias)}.md)`,
        )
        .join('\n'),
    );
  }
  return out.join('\n\n') + '\n';
}

/** A public article at its path (`/blog/<slug>`). */
export async function articleMarkdown(db: Db, origin: string, path: string): Promise<string | undefined> {
  const [article] = await publicArticles(db, path);
  if (!article) return undefined;
  const byline = [
    format(M.published, { date: article.created.toISOString().slice(0, 10) }),
    article.author ? format(M.by, { author: article.author }) : '',
  ]
    .filter(Boolean)
    .join(' ');
  const out = [`# ${article.title}`, byline];
  if (article.category) out.push(format(M.category, { category: article.category }));
  out.push(format(M.htmlPage, { url: `${origin}${article.path}` }));
  if (article.description.trim()) out.push(`> ${article.description.trim().replace(/\r?\n/g, ' ')}`);
  const body = htmlToMarkdown(article.bodyHtml, origin);
  if (body) out.push(body);
  return out.join('\n\n') + '\n';
}

/** A published basic page by any of its aliases, with its canonical alias. */
export async function pageMarkdown(
  db: Db,
  origin: string,
  path: string,
): Promise<{ body: string; alias: string } | undefined> {
  const alias = normalizeAlias(path);
  const page = alias ? await publicPage(db, alias) : undefined;
  if (!page) return undefined;
  const out = [`# ${page.title}`, format(M.htmlPage, { url: `${origin}${page.alias}` })];
  const body = htmlToMarkdown(page.body, origin);
  if (body) out.push(body);
  return { body: out.join('\n\n') + '\n', alias: page.alias };
}

/** The FAQ page: its published questions by category, in the page's order. */
export async function faqMarkdown(db: Db, origin: string): Promise<string> {
  const faqs = await publicFaqs(db);
  const out = [`# ${en.content.faqTitle}`, format(M.htmlPage, { url: `${origin}${FAQ_PAGE}` })];
  let category: string | null | undefined;
  for (const faq of faqs) {
    if (faq.category !== category) {
      category = faq.category;
      out.push(`## ${category ?? M.uncategorised}`);
    }
    out.push(`### ${faq.question}`);
    const answer = htmlToMarkdown(faq.answerHtml, origin);
    if (answer) out.push(answer);
  }
  return out.join('\n\n') + '\n';
}
