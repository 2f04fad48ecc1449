import { isObj, locateOperations, METHODS, type LocatedOperation, type Obj } from './operations.ts';

const SAFE_ID = /^[A-Za-z0-9._~-]{1,120}$/;

function slug(text: string): string {
  return text
    .replace(/[^A-Za-z0-9._~-]+/g, '-')
    .replace(/-+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 110);
}

const located = new WeakMap<object, LocatedOperation[]>();

/**
 * The operations of an OpenAPI 3.1 document's `webhooks` (requests the API sends to its
 * subscribers), in document order. `path` is the webhook's name. Keys never collide with the keys
 * of `paths` operations (`taken`): the operationId when URL-safe and unique, else
 * 'webhook-<name>-<method>'. The gateway never routes them: they are not in locateOperations.
 */
export function locateWebhooks(doc: Obj, taken: ReadonlySet<string>): LocatedOperation[] {
  const cached = located.get(doc);
  if (cached) return cached;
  const found: Omit<LocatedOperation, 'key'>[] = [];
  const idCount = new Map<string, number>();
  for (const [name, pathItem] of Object.entries(isObj(doc.webhooks) ? doc.webhooks : {})) {
    if (!isObj(pathItem)) continue;
    for (const method of METHODS) {
      const operation = pathItem[method];
      if (!isObj(operation)) continue;
      found.push({ method, path: name, pathItem, operation });
      if (typeof operation.operationId === 'string') {
        idCount.set(operation.operationId, (idCount.get(operation.operationId) ?? 0) + 1);
      }
    }
  }
  const used = new Set(taken);
  const result = found.map((f) => {
    const id = f.operation.operationId;
    let key =
      typeof id === 'string' && SAFE_ID.test(id) && idCount.get(id) === 1 && !used.has(id)
        ? id
        : `webhook-${slug(f.path) || 'x'}-${f.method}`;
    if (used.has(key)) {
      let n = 2;
      while (used.has(`${key}-${n}`)) n++;
      key = `${key}-${n}`;
    }
    used.add(key);
    return { ...f, key };
  });
  located.set(doc, result);
  return result;
}

/** Every operation the reference has details of: those of `paths`, then the webhooks. */
export function referenceOperations(doc: Obj): LocatedOperation[] {
  const operations = locateOperations(doc);
  return [...operations, ...locateWebhooks(doc, new Set(operations.map((o) => o.key)))];
}
