export { buildOperationIndex, locateOperations, locateOperationsInTurns } from './operations.ts';
export { MAX_SOURCE_BYTES, parseSource, type SourceFormat } from './parse.ts';
export { formatProblem, OpenApiImportError, type DocumentProblem } from './problems.ts';
export {
  closeDocumentWorkers,
  prepareDocument,
  prepareUploadedDocument,
  runInDocumentWorker,
} from './pool.ts';
export {
  hashDocument,
  processOpenApi,
  type PreparedDocument,
  type ProcessedDocument,
  type ProcessOptions,
} from './process.ts';
export { sandboxUrl, withPublicUrls } from './public-urls.ts';
export { upgrade30To31 } from './upgrade.ts';
export { locateWebhooks, referenceOperations } from './webhooks.ts';
