/** API products list, product detail and documentation pages (spec B 2.10-2.12, 8). */
export const productsMessages = {
  listTitle: 'API Products',
  filterTitle: 'FILTER APIs',
  allCategories: 'ALL CATEGORIES',
} as const;
