import { format } from '@portico/contracts/format';
import type { Db } from '../../db/client.ts';
import { sizedPromiseCache } from '../../lib/sized-promise-cache.ts';
import { readDocumentText } from '../../openapi/document-texts.ts';
import { runInDocumentWorker } from '../../openapi/pool.ts';
import type { OperationIndex } from '@portico/contracts/catalog';
import { DEFAULT_LOCALE, type Locale } from '@portico/contracts/locales';
import { localizedPath } from '@portico/contracts/locale-path';
import type { TranslationMarker } from '../../lib/translations.ts';
import { documentationTranslation, findDocumentation, translatedIndex } from '../catalog/service.ts';
import {
  documentationMarkdown,
  operationMarkdownUrl,
  type DocumentationMarkdown,
  type DocumentationMarkdownTask,
} from './documentation-task.ts';
import { markdownLabels } from './labels.ts';
import type { MarkdownLabels } from './reference.ts';

const TASK = new URL('./documentation-task.ts', import.meta.url);

/**
 * Rendered references by documentation, content hash, title, version, origin and language: worked out once
 * per version of a document (in a worker thread), then answered from memory. Bounded by size.
 */
const rendered = sizedPromiseCache<DocumentationMarkdown | undefined>({
  maxSize: 96 * 1024 * 1024,
  sizeOf: (result) => result.header.length + result.operations.reduce((n, [, s]) => n + s.length, 0),
});

/** Forgets every rendered reference (tests, benches). */
export function clearDocumentationMarkdown(): void {
  rendered.clear();
}

export interface DocumentationPages {
  title: string;
  /** Asked in another language than the default (decision 063): what it is shown in. */
  translation?: TranslationMarker;
  /** `<origin>/documentation/<alias>`: the page, and its Markdown with `.md`. */
  base: string;
  markdown: DocumentationMarkdown;
  /** The page's words in its language (labels.ts). */
  labels: MarkdownLabels;
}

async function render(task: DocumentationMarkdownTask): Promise<DocumentationMarkdown> {
  try {
    return await runInDocumentWorker<DocumentationMarkdown>(TASK, 'documentationMarkdown', task);
  } catch {
    // Should the worker fail, it is done here, as the reference's details are (downloads.ts).
    return documentationMarkdown(task);
  }
}

/** The Markdown of `/documentation/<uuid or alias>`, or undefined when it has no reference. */
export async function documentationPages(
  db: Db,
  origin: string,
  idOrAlias: string,
  locale: Locale = DEFAULT_LOCALE,
): Promise<DocumentationPages | undefined> {
  const doc = await findDocumentation(db, idOrAlias);
  if (!doc) return undefined;
  const base = `${origin}${localizedPath(locale, `/documentation/${encodeURIComponent(doc.alias)}`)}`;
  // In the reader's language (decision 063): the translation's title, description and tags.
  const translation = await documentationTranslation(db, doc.uuid, locale);
  const title = translation.fields?.title || doc.title;
  const labels = markdownLabels(locale);
  const key = JSON.stringify([
    doc.id,
    doc.content_hash,
    title,
    doc.version,
    origin,
    locale,
    translation.stamp,
  ]);
  const markdown = await rendered.get(key, async () => {
    const [converted, index] = await Promise.all([
      readDocumentText(db, doc.id, 'converted'),
      readDocumentText(db, doc.id, 'operation_index'),
    ]);
    if (!converted || !index) return undefined;
    return render({
      converted,
      index: translation.fields
        ? JSON.stringify(translatedIndex(JSON.parse(index) as OperationIndex, translation.fields))
        : index,
      title,
      version: doc.version,
      htmlUrl: base,
      markdownBase: base,
      labels,
    });
  });
  return (
    markdown && {
      title,
      base,
      markdown,
      labels,
      ...(locale === DEFAULT_LOCALE ? {} : { translation: translation.marker }),
    }
  );
}

/** The whole documentation: its header, then every operation. */
export function wholeDocumentation(pages: DocumentationPages): string {
  return (
    [pages.markdown.header, ...pages.markdown.operations.map(([, section]) => section)].join('\n\n') + '\n'
  );
}

/** One operation alone, under a title, with a link to its documentation; undefined if unknown. */
export function oneOperation(pages: DocumentationPages, key: string): string | undefined {
  const section = pages.markdown.operations.find(([k]) => k === key)?.[1];
  if (section === undefined) return undefined;
  const title = section.split('\n', 1)[0]!.replace(/^#+\s*/, '');
  const lead = format(pages.labels.markdown.operationOf, {
    title: format(pages.labels.products.documentationTitle, { title: pages.title }),
    url: `${pages.base}.md`,
  });
  return `# ${title}\n\n${lead}\n\n${section}\n`;
}

export { operationMarkdownUrl };
