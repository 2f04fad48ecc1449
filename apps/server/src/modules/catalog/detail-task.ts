import { detailOfSlice, type DetailTarget } from './operation-details.ts';
import type { Obj } from '../../openapi/operations.ts';
import { dereference } from '../../openapi/slice.ts';

/**
 * The reference's details of one operation as JSON text, worked out in a worker thread of the
 * document pool (decision 038) from the operation's slice as cut on the main thread
 * (cutOperationSlice): its dereference and the details' JSON text took up to 227 ms of one turn of
 * the main thread for Kubernetes (bench:large step 3). Only the text comes back.
 */
export async function operationDetailText(task: {
  slice: Obj;
  target: DetailTarget;
}): Promise<string | null> {
  const detail = detailOfSlice(await dereference(task.slice), task.target);
  return detail === undefined ? null : JSON.stringify(detail);
}
