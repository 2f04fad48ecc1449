import type { Db } from '../../db/client.ts';

/**
 * What other domains do when an account's address becomes proven (service.ts `onAddressProven`):
 * the verification link, a password reset, an account created with a proven address (a company
 * IdP that vouches for it, the demo accounts). The listeners run in the transaction that proves
 * the address, so what was sent to that address becomes the account's together with the proof,
 * never later on a read.
 */
export interface ProvenAddress {
  id: number;
  email: string;
}

/** `trx` is the transaction that proves the address. */
export type AddressProvenListener = (trx: Db, user: ProvenAddress) => Promise<void>;

const listeners = new Set<AddressProvenListener>();

/** Registers a listener (a domain's plugin, once; the same function twice counts once). */
export function onAddressProven(listener: AddressProvenListener): void {
  listeners.add(listener);
}

/** Runs every listener for `user`, inside the caller's transaction. */
export async function addressProven(trx: Db, user: ProvenAddress): Promise<void> {
  for (const listener of listeners) await listener(trx, user);
}
