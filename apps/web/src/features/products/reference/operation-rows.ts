import type { OperationIndex, OperationSummary, OperationTagGroup } from '@portico/contracts/catalog';

/** One line of the virtualized reference: a tag heading or an operation under it. */
export type ReferenceRow =
  | { kind: 'tag'; id: string; tag: OperationTagGroup; shown: number }
  | { kind: 'op'; id: string; tag: string; op: OperationSummary };

/** The words an operation is found by: method, path, summary, operationId and its tag. */
function haystack(op: OperationSummary, tag: string): string {
  return `${op.method} ${op.path} ${op.summary ?? ''} ${op.operationId ?? ''} ${tag}`.toLowerCase();
}

/**
 * The rows for a search: every word of the query must occur (case-insensitive). Tags without a
 * matching operation are left out. An operation with several tags appears under each.
 */
export function buildRows(index: OperationIndex, query: string): ReferenceRow[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  const rows: ReferenceRow[] = [];
  for (const tag of index.tags) {
    const ops = words.length
      ? tag.operations.filter((op) => {
          const text = haystack(op, tag.name);
          return words.every((w) => text.includes(w));
        })
      : tag.operations;
    if (ops.length === 0) continue;
    rows.push({ kind: 'tag', id: `tag:${tag.name}`, tag, shown: ops.length });
    for (const op of ops) rows.push({ kind: 'op', id: `${tag.name}::${op.key}`, tag: tag.name, op });
  }
  return rows;
}

const HASH_PREFIX = '#operation/';

/** The operation key of a deep link ('#operation/<key>'), or null. */
export function operationKeyFromHash(hash: string): string | null {
  if (!hash.startsWith(HASH_PREFIX)) return null;
  const raw = hash.slice(HASH_PREFIX.length);
  if (!raw) return null;
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

export function operationHash(key: string): string {
  return `${HASH_PREFIX}${encodeURIComponent(key)}`;
}
