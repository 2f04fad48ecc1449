/**
 * What other modules use of the content module: the internal-link rule's guard of a console delete
 * or address change (links.ts, README.md 'Internal links'), which the pages console calls when a
 * page is deleted or gives up an address.
 */
export { itemsLinkingTo, refuseLinksTo, type LinkingItem } from './links.ts';
