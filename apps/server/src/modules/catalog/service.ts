/** What other modules use of the catalog's products (the demo organizations' importer). */
export { findProduct } from './repo.ts';
