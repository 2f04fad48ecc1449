import { en } from '@portico/contracts/messages';
import { shownChanges, type VersionedAdapter } from '../../lib/versioned-content.ts';

/**
 * What the catalog's console items (API products, comparison tables) share as adapters of the
 * versioned-content component (docs/decisions/048-versioned-content.md): API managers edit them,
 * a revision names the item's row id, the routes name it by its uuid and answer it as the console
 * shows it, and what differs is each field as text before and after with its word diff.
 */
export interface CatalogRecord<F, T extends { id: string }> {
  rowId: number;
  /** The item as the routes answer it. */
  item: T;
  version: number;
  fields: F;
}

export function catalogAdapter<F extends object, T extends { id: string }>(
  kind: string,
  messages: { notFound: string; stale: string; versionNeeded: string },
  fieldNames: readonly (keyof F & string)[],
): Pick<
  VersionedAdapter<F, CatalogRecord<F, T>>,
  'kind' | 'role' | 'messages' | 'ref' | 'id' | 'json' | 'changes'
> {
  return {
    kind,
    role: 'api_manager',
    messages: {
      ...messages,
      forbidden: en.console.products.managersOnly,
      noRevision: en.console.products.errors.noRevision,
    },
    ref: (r) => r.rowId,
    id: (r) => r.item.id,
    json: (r) => r.item,
    changes: (from, to) => shownChanges(from, to, fieldNames),
  };
}
