import SwaggerParser from '@apidevtools/swagger-parser';
import { resolvePointer } from './document.ts';
import type { DocumentProblem } from './problems.ts';
import { OpenApiImportError, problemsFromAjv, toPointer } from './problems.ts';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Never read files or URLs named by an uploaded document: only references inside it are followed.
 * Circular references are left as `$ref` (the sandbox and the reference resolve them lazily).
 */
export const PARSER_OPTIONS = {
  resolve: { external: false, file: false, http: false },
  dereference: { circular: 'ignore' as const },
};

export type SpecVersion = { kind: 'swagger'; version: '2.0' } | { kind: 'openapi'; version: string };

export function detectVersion(doc: Obj): SpecVersion {
  if ('swagger' in doc) {
    if (doc.swagger === '2.0') return { kind: 'swagger', version: '2.0' };
    throw new OpenApiImportError('Unsupported document version.', [
      { path: '/swagger', message: `must be "2.0" (a string), found ${JSON.stringify(doc.swagger)}` },
    ]);
  }
  if (typeof doc.openapi === 'string' && /^3\.[01]\.\d+$/.test(doc.openapi)) {
    return { kind: 'openapi', version: doc.openapi };
  }
  if ('openapi' in doc) {
    throw new OpenApiImportError('Unsupported document version.', [
      {
        path: '/openapi',
        message: `must be a 3.0.x or 3.1.x version string, found ${JSON.stringify(doc.openapi)}`,
      },
    ]);
  }
  throw new OpenApiImportError('The document is not an OpenAPI description.', [
    { path: '', message: 'must have an "openapi" (3.0, 3.1) or "swagger" (2.0) field' },
  ]);
}

/** The JSON pointer of the first object holding `$ref: ref`, to say where a broken one is. */
function findRef(
  doc: unknown,
  ref: string,
  trail: (string | number)[] = [],
  seen = new Set<object>(),
): string | undefined {
  if (typeof doc !== 'object' || doc === null || seen.has(doc)) return undefined;
  seen.add(doc);
  if (isObj(doc) && doc.$ref === ref) return toPointer([...trail, '$ref']);
  for (const [k, v] of Object.entries(doc)) {
    const found = findRef(v, ref, [...trail, Array.isArray(doc) ? Number(k) : k], seen);
    if (found) return found;
  }
  return undefined;
}

/** "/paths/accounts/{id}/get" in a validator message → the pointer of that operation. */
function pointerInMessage(doc: Obj, message: string): string {
  const token = /\/(?:paths|definitions)\/\S+/.exec(message)?.[0];
  if (!token) return '';
  const section = token.startsWith('/paths') ? 'paths' : 'definitions';
  const rest = token.slice(section.length + 1);
  const keys = Object.keys(isObj(doc[section]) ? doc[section] : {}).sort((a, b) => b.length - a.length);
  const key =
    section === 'paths' ? keys.find((k) => rest.startsWith(k)) : keys.find((k) => rest.startsWith(`/${k}`));
  if (key === undefined) return '';
  const after = rest.slice(section === 'paths' ? key.length : key.length + 1);
  return toPointer([section, key, ...after.split('/').filter(Boolean)]);
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

function deref(doc: Obj, v: unknown): unknown {
  for (let i = 0; i < 10 && isObj(v) && typeof v.$ref === 'string'; i++) v = resolvePointer(doc, v.$ref);
  return v;
}

/**
 * The rules of OpenAPI 3 that its meta-schema cannot express and swagger-parser checks for Swagger
 * 2.0 only: every path template variable is a declared path parameter, and back; parameters are
 * unique by name and location; operationIds are unique.
 */
export function semanticProblems(doc: Obj): DocumentProblem[] {
  const problems: DocumentProblem[] = [];
  const ids = new Map<string, string>();
  for (const [path, rawItem] of Object.entries(isObj(doc.paths) ? doc.paths : {})) {
    const item = deref(doc, rawItem);
    if (!isObj(item)) continue;
    const templated = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
    const shared = Array.isArray(item.parameters)
      ? item.parameters.map((p) => deref(doc, p)).filter(isObj)
      : [];
    for (const method of METHODS) {
      const op = item[method];
      if (!isObj(op)) continue;
      const where = toPointer(['paths', path, method]);
      const own = Array.isArray(op.parameters) ? op.parameters.map((p) => deref(doc, p)).filter(isObj) : [];
      const seen = new Set<string>();
      own.forEach((p, i) => {
        const key = `${String(p.in)}:${String(p.name)}`;
        if (seen.has(key)) {
          problems.push({
            path: `${where}/parameters/${i}`,
            message: `duplicate ${String(p.in)} parameter '${String(p.name)}'`,
          });
        }
        seen.add(key);
      });
      const declared = new Set(
        [...shared, ...own]
          .filter((p) => p.in === 'path' && typeof p.name === 'string')
          .map((p) => p.name as string),
      );
      const missing = templated.filter((n) => !declared.has(n));
      if (missing.length) {
        problems.push({
          path: where,
          message: `missing path parameter(s) ${missing.map((n) => `'${n}'`).join(', ')} of ${path}`,
        });
      }
      for (const name of declared) {
        if (!templated.includes(name)) {
          problems.push({ path: where, message: `path parameter '${name}' is not in the path ${path}` });
        }
      }
      if (typeof op.operationId === 'string') {
        const first = ids.get(op.operationId);
        if (first) {
          problems.push({
            path: `${where}/operationId`,
            message: `duplicate operationId '${op.operationId}' (also at ${first})`,
          });
        } else ids.set(op.operationId, where);
      }
    }
  }
  return problems;
}

/**
 * Validates a Swagger 2.0 / OpenAPI 3.0 / 3.1 document against its meta-schema and the rules the
 * schema cannot express (path parameters, duplicate operationIds, references), on a copy.
 */
export async function validateDocument(doc: Obj): Promise<void> {
  try {
    await SwaggerParser.validate(structuredClone(doc) as never, PARSER_OPTIONS);
  } catch (err) {
    const e = err as Error & {
      details?: unknown;
      $ref?: string;
      token?: string;
      files?: { errors?: unknown[] };
    };
    let problems: DocumentProblem[];
    if (Array.isArray(e.details)) {
      problems = problemsFromAjv(e.details as Parameters<typeof problemsFromAjv>[0]);
    } else if (/resolving \$ref|does not exist|Invalid \$ref/i.test(e.message)) {
      const ref = /"([^"]+)"/.exec(e.message)?.[1];
      problems = [{ path: (ref && findRef(doc, ref)) || '', message: e.message.split('\n')[0]! }];
    } else {
      const message = e.message.replace(/^Validation failed\.\s*/, '').split('\n')[0]!;
      // swagger-parser's own checks before the schema: say which field they mean.
      const field = /^API version number/.test(message)
        ? '/info/version'
        : /^(Swagger|Openapi) version number/.test(message)
          ? `/${message.startsWith('Swagger') ? 'swagger' : 'openapi'}`
          : pointerInMessage(doc, message);
      problems = [{ path: field, message }];
    }
    throw new OpenApiImportError('The document is not a valid OpenAPI description.', problems);
  }
  if (typeof doc.openapi === 'string') {
    const problems = semanticProblems(doc);
    if (problems.length)
      throw new OpenApiImportError('The document is not a valid OpenAPI description.', problems);
  }
}
