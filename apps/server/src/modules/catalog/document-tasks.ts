import type { Obj } from '../../openapi/operations.ts';
import { cutOperationSlice } from '../../openapi/slice.ts';
import { detailTarget, detailTargetInTurns, type DetailTarget } from './operation-details.ts';

/**
 * The reference's task on a parsed stored document, run in the stored documents' thread
 * (openapi/document-thread.ts, decision 070): which operation a key names and its slice, cut (not
 * dereferenced: the document pool does that, detail-task.ts).
 */
export interface DetailCut {
  target: DetailTarget;
  slice: Obj;
}

function cut(doc: Obj, target: DetailTarget | undefined): DetailCut | undefined {
  if (!target) return undefined;
  const where = target.webhook ? 'webhooks' : 'paths';
  return { target, slice: cutOperationSlice(doc, target.method, target.path, where) };
}

/** In the stored documents' thread: the operation of `key` and its slice, null when none. */
export function detailCut(doc: Obj, key: string): DetailCut | null {
  return cut(doc, detailTarget(doc, key)) ?? null;
}

/** The same on the thread that answers requests (a draft's document), its operations located in turns. */
export async function detailCutInTurns(doc: Obj, key: string): Promise<DetailCut | undefined> {
  return cut(doc, await detailTargetInTurns(doc, key));
}
