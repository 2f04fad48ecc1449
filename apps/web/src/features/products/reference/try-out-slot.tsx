import type { OperationDetail } from '@portico/contracts/catalog';

export interface TryOutSlotProps {
  /** The documentation's alias: the sandbox answers under /sandbox/<alias>. */
  documentationAlias: string;
  /** Everything the console needs to build a request: server, parameters, body, security. */
  operation: OperationDetail;
}

/**
 * Where the try-out console (spec B 2.16) attaches to each expanded operation. The console is a
 * later piece of work; until it exists this slot renders nothing, so the reference stays as the
 * spec lists it.
 */
export function TryOutSlot(_props: TryOutSlotProps) {
  return null;
}
