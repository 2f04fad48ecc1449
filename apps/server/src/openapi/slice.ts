import SwaggerParser from '@apidevtools/swagger-parser';
import { resolvePointer } from './document.ts';
import { isObj, METHODS, type Obj } from './operations.ts';
import { PARSER_OPTIONS } from './validate.ts';

/**
 * What one operation needs of a stored (bundled) document, dereferenced: a small OpenAPI document
 * with that operation alone under its path, the components its `$ref`s reach (transitively) and
 * every security scheme. Circular schemas stay `$ref` into the slice's own components, as the
 * whole-document dereference left them before (decision 017). The stored document is not changed.
 *
 * A `$ref` pointing outside `#/components/` (into another path, say) makes the slice the whole
 * document: rare, and always correct.
 */
export async function operationSlice(
  doc: Obj,
  method: string,
  path: string,
  /** Where the operation is: under `paths`, or an OpenAPI 3.1 webhook (`path` is its name). */
  where: 'paths' | 'webhooks' = 'paths',
): Promise<Obj> {
  return dereference(cutOperationSlice(doc, method, path, where));
}

/**
 * The slice operationSlice dereferences, not yet dereferenced (its `$ref`s kept, sharing the
 * document's objects): a walk over what the operation reaches, quick on the main thread, where
 * the dereference of a big slice is not (decision 038: the reference's is done in a worker).
 */
export function cutOperationSlice(
  doc: Obj,
  method: string,
  path: string,
  where: 'paths' | 'webhooks' = 'paths',
): Obj {
  const paths = isObj(doc[where]) ? (doc[where] as Obj) : {};
  let item = paths[path];
  if (isObj(item) && typeof item.$ref === 'string') {
    const target = resolvePointer(doc, item.$ref);
    if (isObj(target)) item = { ...target, ...item, $ref: undefined };
  }
  const m = method.toLowerCase();
  if (!isObj(item) || !isObj(item[m])) return doc;
  const onlyItem: Obj = {};
  for (const [k, v] of Object.entries(item)) {
    if (v === undefined) continue;
    if (!(METHODS as readonly string[]).includes(k) || k === m) onlyItem[k] = v;
  }
  const components: Record<string, Obj> = {};
  const comps = isObj(doc.components) ? doc.components : {};
  if (isObj(comps.securitySchemes)) components.securitySchemes = { ...comps.securitySchemes };

  // Every component the operation reaches, transitively, and those reached from the document's
  // parts copied into the slice below: vendor extensions of tags or info may `$ref` components too
  // (APIs.guru's apideck documents: `tags[].x-apideck-model`), and the dereference follows them.
  const copied = ['openapi', 'info', 'jsonSchemaDialect', 'servers', 'security', 'tags'] as const;
  const seenRefs = new Set<string>();
  const seenNodes = new Set<object>();
  const stack: unknown[] = [onlyItem, ...copied.map((k) => doc[k])];
  while (stack.length) {
    const node = stack.pop();
    if (typeof node !== 'object' || node === null || seenNodes.has(node)) continue;
    seenNodes.add(node);
    const ref = (node as Obj).$ref;
    if (typeof ref === 'string' && ref.startsWith('#') && !seenRefs.has(ref)) {
      seenRefs.add(ref);
      const parts = ref.slice(1).split('/').slice(1);
      if (parts[0] !== 'components' || parts.length < 3) return doc;
      const [, kind, rawName] = parts as [string, string, string];
      const name = decodeURIComponent(rawName).replace(/~1/g, '/').replace(/~0/g, '~');
      const group = isObj(comps[kind]) ? comps[kind] : {};
      if (name in group) {
        (components[kind] ??= {})[name] = group[name];
        stack.push(group[name]);
      }
    }
    for (const v of Array.isArray(node) ? node : Object.values(node)) {
      if (typeof v === 'object' && v !== null) stack.push(v);
    }
  }

  const slice: Obj = {};
  for (const k of copied) {
    if (k in doc) slice[k] = doc[k];
  }
  slice.paths = where === 'paths' ? { [path]: onlyItem } : {};
  if (where === 'webhooks') slice.webhooks = { [path]: onlyItem };
  slice.components = components;
  return slice;
}

/** A dereferenced copy (circular references left as `$ref`); the input is not changed. */
export async function dereference(doc: Obj): Promise<Obj> {
  return (await SwaggerParser.dereference(structuredClone(doc) as never, PARSER_OPTIONS)) as unknown as Obj;
}
