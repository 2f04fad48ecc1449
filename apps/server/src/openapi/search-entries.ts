import { plainText } from '../lib/plain-text.ts';
import { isObj, locateOperations, type Obj } from './operations.ts';

/** What the site search keeps of one operation (modules/catalog/search-sync.ts). */
export interface OperationSearchEntry {
  key: string;
  method: string;
  path: string;
  summary: string | null;
  operationId: string | null;
  /**
   * The description as plain text (tags stripped, lib/plain-text.ts), cut: the index is for
   * finding, not for reading. Made here, in the worker thread, not on the event loop: the plain
   * text of 3,000 descriptions takes over 100 ms.
   */
  text: string;
  deprecated: boolean;
}

/** Longest description kept per operation in the index. */
const DESCRIPTION_MAX = 4000;

const text = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v : null);

/** Every operation of a stored (bundled) document, with the fields the search finds it by. */
export function operationSearchEntries(doc: Obj): OperationSearchEntry[] {
  return locateOperations(doc).map((op) => ({
    key: op.key,
    method: op.method,
    path: op.path,
    summary: text(op.operation.summary),
    operationId: text(op.operation.operationId),
    text: plainText(
      (text(op.operation.description) ?? text(isObj(op.pathItem) ? op.pathItem.description : null))?.slice(
        0,
        DESCRIPTION_MAX,
      ),
    ),
    deprecated: op.operation.deprecated === true,
  }));
}
