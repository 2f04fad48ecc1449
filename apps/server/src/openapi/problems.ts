import type { DocumentProblem } from '@portico/contracts/catalog';
import { isMap, isSeq, LineCounter, parseDocument, type Node as YamlNode } from 'yaml';

export type { DocumentProblem };

/** An OpenAPI document that cannot be imported, with what is wrong and where. */
export class OpenApiImportError extends Error {
  readonly problems: DocumentProblem[];
  constructor(summary: string, problems: DocumentProblem[]) {
    super(
      problems.length ? `${summary}\n${problems.map((p) => `  ${formatProblem(p)}`).join('\n')}` : summary,
    );
    this.name = 'OpenApiImportError';
    this.problems = problems;
  }
}

export function formatProblem(p: DocumentProblem): string {
  const where = p.line ? `line ${p.line}${p.column ? `:${p.column}` : ''}, ` : '';
  return `${where}${p.path || '/'}: ${p.message}`;
}

/** JSON pointer ('/paths/~1accounts/get') to its segments. */
export function pointerSegments(pointer: string): string[] {
  const p = pointer.replace(/^#/, '');
  if (!p || p === '/') return [];
  return p
    .slice(1)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

export function toPointer(segments: readonly (string | number)[]): string {
  return segments.map((s) => `/${String(s).replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
}

interface AjvError {
  instancePath: string;
  keyword: string;
  message?: string;
  params?: Record<string, unknown>;
}

/**
 * Turns Ajv's errors from validating a document against the OpenAPI meta-schema into the few that
 * say what to fix. The meta-schema is full of oneOf alternatives (a Reference Object or the real
 * object, one parameter shape per `in`), and Ajv reports every failed alternative; most are noise.
 */
export function problemsFromAjv(errors: readonly AjvError[]): DocumentProblem[] {
  // A wrong discriminating value (parameter `in`, a `type`) makes every alternative fail on
  // required properties of its parent: report the value, not the consequences.
  const discriminated = new Set(
    errors
      .filter((e) => e.keyword === 'enum' || e.keyword === 'const')
      .map((e) => e.instancePath.slice(0, e.instancePath.lastIndexOf('/'))),
  );
  const enums = new Map<string, Set<unknown>>();
  const out: DocumentProblem[] = [];
  for (const e of errors) {
    if (e.keyword === 'oneOf' || e.keyword === 'anyOf' || e.keyword === 'if' || e.keyword === 'not') continue;
    if (e.keyword === 'required') {
      // The Reference Object alternative.
      if (e.params?.missingProperty === '$ref') continue;
      if (discriminated.has(e.instancePath)) continue;
    }
    if (e.keyword === 'enum' || e.keyword === 'const') {
      const allowed = enums.get(e.instancePath) ?? new Set<unknown>();
      const values = e.keyword === 'enum' ? e.params?.allowedValues : [e.params?.allowedValue];
      for (const v of Array.isArray(values) ? values : []) allowed.add(v);
      enums.set(e.instancePath, allowed);
      continue;
    }
    if (e.keyword === 'additionalProperties' && typeof e.params?.additionalProperty === 'string') {
      out.push({
        path: `${e.instancePath}${toPointer([e.params.additionalProperty])}`,
        message: `unknown property '${e.params.additionalProperty}'`,
      });
      continue;
    }
    if (e.keyword === 'unevaluatedProperties' && typeof e.params?.unevaluatedProperty === 'string') {
      out.push({
        path: `${e.instancePath}${toPointer([e.params.unevaluatedProperty])}`,
        message: `unknown property '${e.params.unevaluatedProperty}'`,
      });
      continue;
    }
    out.push({ path: e.instancePath, message: e.message ?? e.keyword });
  }
  for (const [path, allowed] of enums) {
    out.push({ path, message: `must be one of: ${[...allowed].map((v) => JSON.stringify(v)).join(', ')}` });
  }
  const seen = new Set<string>();
  return out
    .filter((p) => {
      const k = `${p.path}\u0000${p.message}`;
      if (seen.has(k)) return false;
      seen.add(k);
      return true;
    })
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
    .slice(0, 50);
}

/**
 * Adds line and column to problems by finding their JSON pointer in the source text (JSON is YAML,
 * so one parser serves both). The deepest existing node on the path is used.
 */
export function locateProblems(source: string, problems: DocumentProblem[]): DocumentProblem[] {
  if (!problems.some((p) => p.path && p.line === undefined)) return problems;
  const lineCounter = new LineCounter();
  let doc;
  try {
    doc = parseDocument(source, { lineCounter, uniqueKeys: false, prettyErrors: false });
  } catch {
    return problems;
  }
  return problems.map((p) => {
    if (p.line !== undefined) return p;
    let node: unknown = doc.contents;
    let keyNode: unknown;
    for (const segment of pointerSegments(p.path)) {
      if (isMap(node)) {
        const pair = node.items.find((it) => {
          const k = it.key as { value?: unknown } | null;
          return k !== null && typeof k === 'object' && String(k.value) === segment;
        });
        if (!pair) break;
        keyNode = pair.key;
        node = pair.value;
      } else if (isSeq(node)) {
        const item = node.items[Number(segment)];
        if (item === undefined) break;
        keyNode = undefined;
        node = item;
      } else break;
    }
    const target = (keyNode ?? node) as YamlNode | null | undefined;
    const offset = target?.range?.[0];
    if (offset === undefined) return p;
    const { line, col } = lineCounter.linePos(offset);
    return { ...p, line, column: col };
  });
}
