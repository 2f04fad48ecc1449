import type { ApiChangeSummary, DraftOperation, DraftScope } from '@portico/contracts/api-drafts';
import { compareDocuments, draftOperations, draftScopes } from './diff.ts';
import type { Obj } from './operations.ts';
import { processOpenApi, type ProcessOptions } from './process.ts';

export interface DraftComparison {
  summary: ApiChangeSummary;
  operations: DraftOperation[];
  scopes: DraftScope[];
}

/**
 * Runs in a worker thread of the document pool (pool.ts runInDocumentWorker): a draft's document
 * converted as the importer converts it, compared with the published converted document (its
 * stored text, or null for a new API). The caller has checked the draft with prepareDocument, so
 * it converts here without problems.
 */
export async function compareDraft(task: {
  source: string;
  options: ProcessOptions;
  published: string | null;
}): Promise<DraftComparison> {
  const { converted } = await processOpenApi(task.source, task.options);
  const before = task.published === null ? null : (JSON.parse(task.published) as Obj);
  const operations = draftOperations(converted);
  return {
    summary: compareDocuments(before, converted),
    operations,
    scopes: draftScopes(before, operations),
  };
}
