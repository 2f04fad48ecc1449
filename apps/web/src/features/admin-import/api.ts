import type { ApiImportResult } from '@portico/contracts/api-import';
import { apiRequest } from '../../lib/api-client';

/** The form's options as the server's query (the `import-api` command's flags). */
export interface ImportOptions {
  product: string;
  alias?: string;
  title?: string;
  category?: string;
  plan?: string;
  deprecated?: boolean;
}

/** Uploads one document as the raw body (POST /admin-api/catalog/import-api, decision 033). */
export async function importApiDocument(
  file: File,
  options: ImportOptions,
  signal?: AbortSignal,
): Promise<ApiImportResult> {
  const res = await apiRequest<{ data: ApiImportResult }>('/admin-api/catalog/import-api', {
    method: 'POST',
    format: 'json',
    query: {
      product: options.product,
      alias: options.alias || undefined,
      title: options.title || undefined,
      category: options.category || undefined,
      plan: options.plan || undefined,
      deprecated: options.deprecated ? 'true' : undefined,
      filename: file.name,
    },
    // The bytes as they are: the server reads JSON or YAML itself, whatever the file's type.
    headers: { 'Content-Type': 'application/octet-stream' },
    rawBody: file,
    signal,
  });
  return res.data;
}
