import { countLabel as sharedCountLabel } from '@portico/contracts/documentation-data';
import type { OperationIndex, OperationSummary, OperationTagGroup } from '@portico/contracts/catalog';
import type { Translate } from '../../../lib/i18n';

/**
 * One line of the virtualized reference: a tag heading or an operation under it. The document's
 * webhooks come last, under one heading of their own (`webhooks: true`).
 */
export type ReferenceRow =
  | { kind: 'tag'; id: string; tag: OperationTagGroup; shown: number; webhooks?: boolean }
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
  const webhooks = (index.webhooks ?? []).filter((op) => {
    const text = haystack(op, 'webhook');
    return words.every((w) => text.includes(w));
  });
  if (webhooks.length) {
    const tag = { name: 'webhooks', description: null, operations: webhooks };
    rows.push({ kind: 'tag', id: 'webhooks:', tag, shown: webhooks.length, webhooks: true });
    for (const op of webhooks) rows.push({ kind: 'op', id: `webhooks::${op.key}`, tag: 'webhooks', op });
  }
  return rows;
}

/** How many distinct operations and webhooks rows show (an operation under several tags once). */
export function countRows(rows: readonly ReferenceRow[]): { operations: number; webhooks: number } {
  const operations = new Set<string>();
  const webhooks = new Set<string>();
  for (const r of rows) if (r.kind === 'op') (r.op.webhook ? webhooks : operations).add(r.op.key);
  return { operations: operations.size, webhooks: webhooks.size };
}

/** The reference's count in the visitor's language (contracts' countLabel, as the first screen). */
export function countLabel(t: Translate, count: { operations: number; webhooks: number }): string {
  return sharedCountLabel(count, (message, n) => t(`products.${message}`, { count: n }));
}
