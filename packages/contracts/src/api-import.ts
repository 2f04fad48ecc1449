import { z } from 'zod';
import { format } from './format.ts';
import { apiImportMessages as M } from './messages/api-import.ts';

/**
 * The options of an OpenAPI import from the portal (`POST /admin-api/catalog/import-api`, sent as
 * query parameters beside the document, which is the raw body): the `import-api` command's options.
 * The server checks the query with this schema, the web app's form the same fields.
 */

/** The largest document accepted, as the importer's own limit (catalog openapi/parse.ts). */
export const API_IMPORT_MAX_BYTES = 64 * 1024 * 1024;
export const API_IMPORT_TEXT_MAX = 255;
/** Aliases are URL path segments (/documentation/<alias>, /sandbox/<alias>). */
export const API_IMPORT_ALIAS = /^[a-z0-9][a-z0-9._-]{0,99}$/;

/**
 * The alias a document gets from its file name when none is given (the import, the command line,
 * and a spec file of content/openapi no entry names): lower case, without its .json/.yaml/.yml
 * extension, at most 100 characters, and every other run of what an alias does not take (a dot included) as one '-', so
 * that `braze.com.json` is `braze-com`, not `braze.com`, an address that looks like a file's.
 * A name with nothing an alias takes stays as it is, for the alias check to refuse by its name.
 */
export function defaultApiAlias(fileName: string): string {
  const base = (fileName.split(/[\\/]/).pop() ?? '').replace(/\.(ya?ml|json)$/i, '');
  const alias = base
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, '-')
    .replace(/^[-_]+/, '')
    .slice(0, 100)
    .replace(/-+$/, '');
  return alias || base;
}

const text = (max = API_IMPORT_TEXT_MAX) =>
  z
    .string()
    .trim()
    .max(max, { error: format(M.tooLong, { max }) });
const optional = (max?: number) =>
  text(max)
    .optional()
    .transform((v) => (v ? v : undefined));
const alias = (required: string) =>
  z
    .string({ error: required })
    .trim()
    .toLowerCase()
    .min(1, { error: required })
    .regex(API_IMPORT_ALIAS, { error: M.invalidAlias });

export const apiImportOptionsSchema = z.object({
  product: alias(M.productRequired),
  alias: alias(M.invalidAlias)
    .optional()
    .or(z.literal('').transform(() => undefined)),
  title: optional(),
  apiId: optional(),
  plan: optional(),
  category: optional(),
  // A query parameter is text: 'true' or 'false' (or absent).
  deprecated: z
    .enum(['true', 'false'], { error: M.invalidDeprecated })
    .optional()
    .transform((v) => v === 'true'),
});

export type ApiImportOptions = z.input<typeof apiImportOptionsSchema>;

/** What an import answers (the command line prints the same). */
export interface ApiImportResult {
  status: 'created' | 'updated' | 'unchanged';
  documentation: {
    uuid: string;
    alias: string;
    title: string;
    /** The source's version ('Swagger 2.0', 'OpenAPI 3.0.3'…); null when unchanged (not processed). */
    sourceSpecVersion: string | null;
    operationCount: number | null;
    tags: string[];
    webhookCount: number;
  };
  product: { uuid: string; alias: string; title: string; created: boolean; category: string | null };
  links: { documentation: string; product: string; sandbox: string };
}
