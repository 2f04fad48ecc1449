import type { OperationIndex } from '@portico/contracts/catalog';
import type { Obj } from '../../openapi/operations.ts';
import { cutOperationSlice, dereference } from '../../openapi/slice.ts';
import { detailOfSlice } from '../catalog/service.ts';
import { documentationHeader, indexOperations, operationSection, type MarkdownLabels } from './reference.ts';

export interface DocumentationMarkdownTask {
  /** The stored (converted) document's JSON text. */
  converted: string;
  /** The stored operation index's JSON text. */
  index: string;
  title: string;
  version: string | null;
  /** The documentation page's address. */
  htmlUrl: string;
  /** The documentation's Markdown address without `.md` (operations are under `/operations/`). */
  markdownBase: string;
  /** The page's words in its language (labels.ts); English when absent. */
  labels?: MarkdownLabels;
}

/** The documentation's header and each operation's section, in the page's order. */
export interface DocumentationMarkdown {
  header: string;
  operations: [key: string, section: string][];
}

/** The Markdown address of one operation of a documentation. */
export function operationMarkdownUrl(markdownBase: string, key: string): string {
  return `${markdownBase}/operations/${encodeURIComponent(key)}.md`;
}

/**
 * The whole reference of a documentation as Markdown, worked out in a worker thread of the
 * document pool (markdown/documentation.ts): GitHub's 13 MB description has about a thousand
 * operations, each dereferenced and its samples made, seconds of CPU that must not hold the
 * server's main thread. Each operation is cut and dereferenced alone (slice.ts), as the reference's
 * details are; one that cannot be worked out keeps its method, path and summary.
 */
export async function documentationMarkdown(task: DocumentationMarkdownTask): Promise<DocumentationMarkdown> {
  const doc = JSON.parse(task.converted) as Obj;
  const index = JSON.parse(task.index) as OperationIndex;
  const operations: [string, string][] = [];
  for (const op of indexOperations(index)) {
    const markdownUrl = operationMarkdownUrl(task.markdownBase, op.key);
    const target = { key: op.key, method: op.method, path: op.path, webhook: op.webhook === true };
    let section: string | undefined;
    try {
      const slice = await dereference(
        cutOperationSlice(doc, op.method, op.path, target.webhook ? 'webhooks' : 'paths'),
      );
      const detail = detailOfSlice(slice, target);
      if (detail) section = operationSection(detail, doc, { markdownUrl, labels: task.labels });
    } catch {
      // Below: what the index knows of it.
    }
    section ??= [`## ${op.method.toUpperCase()} ${op.path}`, op.summary ?? '', `- ${markdownUrl}`]
      .filter(Boolean)
      .join('\n\n');
    operations.push([op.key, section]);
  }
  return {
    header: documentationHeader(
      index,
      { title: task.title, version: task.version, htmlUrl: task.htmlUrl },
      task.labels,
    ),
    operations,
  };
}
