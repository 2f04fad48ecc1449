/** Messages the catalog server returns (spec B 3, 7, 8): documents, products, imports. */
export const catalogMessages = {
  swaggerNotFound: 'Swagger not found',
  deprecatedApi: 'Deprecated API',
  productNotFound: 'API product not found',
  documentationNotFound: 'API documentation not found',
  operationNotFound: 'Operation not found',
  comparisonTableNotFound: 'Comparison table not found',
  noNewerVersion: 'There is no newer version of this API product',
  defaultPlan: '100 per hour',
  // A product created by `import-api` from its document's info (modules/catalog/product-info.ts).
  productContact: 'Contact',
  productLicense: 'License',
  productExternalDocs: 'More documentation',
} as const;
