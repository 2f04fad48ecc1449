/**
 * The parts of an OpenAPI 3.1 document (as the catalog stores it: converted and dereferenced,
 * with circular schemas left as `$ref`) that the sandbox gateway reads. Everything is optional:
 * imported documents are not trusted to be complete.
 */
export type JsonSchema = { [key: string]: unknown } | boolean;

export interface MediaType {
  schema?: JsonSchema;
  example?: unknown;
  examples?: Record<string, { value?: unknown; $ref?: string } | undefined>;
}

export interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  schema?: JsonSchema;
  content?: Record<string, MediaType>;
  style?: string;
  explode?: boolean;
}

export interface Response {
  description?: string;
  content?: Record<string, MediaType>;
  headers?: Record<string, { schema?: JsonSchema; example?: unknown } | undefined>;
}

export type SecurityRequirement = Record<string, string[]>;

export interface Operation {
  operationId?: string;
  parameters?: Parameter[];
  requestBody?: { required?: boolean; content?: Record<string, MediaType> };
  responses?: Record<string, Response | undefined>;
  security?: SecurityRequirement[];
}

export interface SecurityScheme {
  type?: string;
  /** http: 'basic', 'bearer', ... */
  scheme?: string;
  /** apiKey: the header, query parameter or cookie name. */
  name?: string;
  in?: string;
}

export interface OpenApiDocument {
  openapi?: string;
  servers?: { url?: string }[];
  paths?: Record<string, Record<string, unknown> | undefined>;
  components?: { securitySchemes?: Record<string, SecurityScheme | undefined> } & Record<string, unknown>;
  security?: SecurityRequirement[];
}

export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

export const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Resolves a local JSON pointer (`#/components/schemas/Node`) in the document. */
export function resolvePointer(doc: unknown, ref: string): unknown {
  if (!ref.startsWith('#')) return undefined;
  const parts = ref
    .slice(1)
    .split('/')
    .slice(1)
    .map((p) => decodeURIComponent(p).replace(/~1/g, '/').replace(/~0/g, '~'));
  let node: unknown = doc;
  for (const part of parts) {
    if (Array.isArray(node)) node = node[Number(part)];
    else if (isObject(node)) node = node[part];
    else return undefined;
  }
  return node;
}

/**
 * The object a schema stands for: its local `$ref`s followed, at most `limit` of them (a chain of
 * references to each other ends there, as it is); undefined when it is no object.
 */
export function followRefs(
  doc: unknown,
  schema: unknown,
  limit: number,
): Record<string, unknown> | undefined {
  let node = schema;
  for (let hops = 0; isObject(node) && typeof node.$ref === 'string' && hops < limit; hops++)
    node = resolvePointer(doc, node.$ref);
  return isObject(node) ? node : undefined;
}
