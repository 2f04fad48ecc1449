/**
 * A JSON schema as a compact TypeScript-like outline for the Markdown reference:
 *
 * ```ts
 * {
 *   amount: number; // The amount in cents
 *   currency?: "EUR" | "USD";
 *   items: { id: string; }[];
 * }
 * ```
 *
 * Depth-limited (nested objects past MAX_DEPTH are `object`), with at most MAX_PROPERTIES
 * properties per object and MAX_LINES lines in all, so that a huge schema (GitHub's) stays a
 * readable page. A `$ref` left in a dereferenced schema is followed with `resolve` (the
 * operation's `refs`), once along each branch: a circular one is named the second time.
 */
const MAX_DEPTH = 4;
const MAX_PROPERTIES = 60;
const MAX_LINES = 200;
const MAX_ENUM = 12;
const MAX_COMMENT = 160;

type Schema = Record<string, unknown>;

const isSchema = (value: unknown): value is Schema =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The first line of a description, shortened, for a `// …` comment. */
function comment(schema: Schema): string {
  const parts: string[] = [];
  if (typeof schema.format === 'string') parts.push(`(${schema.format})`);
  if (schema.deprecated === true) parts.push('(deprecated)');
  const description = typeof schema.description === 'string' ? schema.description.trim() : '';
  if (description) {
    const line = (description.split(/\r?\n/, 1)[0] ?? '').trim();
    parts.push(line.length > MAX_COMMENT ? `${line.slice(0, MAX_COMMENT - 1)}…` : line);
  }
  return parts.join(' ');
}

function refName(ref: string): string {
  return decodeURIComponent(ref.split('/').pop() ?? ref)
    .replace(/~1/g, '/')
    .replace(/~0/g, '~');
}

export function schemaOutline(schema: unknown, resolve?: (ref: string) => unknown): string {
  let lines = 0;
  const following = new Set<string>();

  const wrap = (text: string) => (/[|&]/.test(text) && !text.startsWith('{') ? `(${text})` : text);

  function render(s: unknown, indent: string, depth: number): string {
    if (s === true || s === undefined) return 'unknown';
    if (s === false) return 'never';
    if (!isSchema(s)) return 'unknown';
    if (typeof s.$ref === 'string') {
      const ref = s.$ref;
      const target = following.has(ref) ? undefined : resolve?.(ref);
      if (target === undefined) return refName(ref);
      following.add(ref);
      try {
        return render(target, indent, depth);
      } finally {
        following.delete(ref);
      }
    }
    if ('const' in s) return JSON.stringify(s.const) ?? 'unknown';
    if (Array.isArray(s.enum)) {
      const values = s.enum.slice(0, MAX_ENUM).map((v) => JSON.stringify(v) ?? 'null');
      if (s.enum.length > MAX_ENUM) values.push('…');
      return values.join(' | ');
    }
    for (const key of ['oneOf', 'anyOf'] as const) {
      const options = s[key];
      if (Array.isArray(options) && options.length) {
        return options.map((o) => render(o, indent, depth)).join(' | ');
      }
    }
    if (Array.isArray(s.allOf) && s.allOf.length) {
      const merged = mergeAllOf(s);
      if (merged) return render(merged, indent, depth);
      return s.allOf.map((o) => wrap(render(o, indent, depth))).join(' & ');
    }
    const types = Array.isArray(s.type) ? s.type.filter((t) => typeof t === 'string') : [s.type];
    const named = types.filter((t): t is string => typeof t === 'string');
    if (named.length > 1) {
      return named.map((t) => render({ ...s, type: t }, indent, depth)).join(' | ');
    }
    const type = named[0] ?? (isSchema(s.properties) ? 'object' : s.items ? 'array' : undefined);
    const nullable = s.nullable === true ? ' | null' : '';
    switch (type) {
      case 'string':
      case 'boolean':
      case 'null':
        return type + nullable;
      case 'integer':
      case 'number':
        return 'number' + nullable;
      case 'array':
        return `${wrap(render(s.items, indent, depth))}[]${nullable}`;
      case 'object':
        return objectOutline(s, indent, depth) + nullable;
      default:
        return 'unknown';
    }
  }

  function objectOutline(s: Schema, indent: string, depth: number): string {
    const properties = isSchema(s.properties) ? Object.entries(s.properties) : [];
    const extra = s.additionalProperties;
    if (!properties.length) {
      return isSchema(extra) ? `Record<string, ${render(extra, indent, depth + 1)}>` : 'object';
    }
    if (depth >= MAX_DEPTH || lines >= MAX_LINES) return 'object';
    const required = new Set(Array.isArray(s.required) ? s.required : []);
    const inner = `${indent}  `;
    const out: string[] = ['{'];
    for (const [name, property] of properties.slice(0, MAX_PROPERTIES)) {
      if (lines >= MAX_LINES) {
        out.push(`${inner}// …`);
        break;
      }
      lines++;
      const key = /^[A-Za-z_$][\w$]*$/.test(name) ? name : JSON.stringify(name);
      const note = isSchema(property) ? comment(property) : '';
      out.push(
        `${inner}${key}${required.has(name) ? '' : '?'}: ${render(property, inner, depth + 1)};${note ? ` // ${note}` : ''}`,
      );
    }
    if (properties.length > MAX_PROPERTIES)
      out.push(`${inner}// … ${properties.length - MAX_PROPERTIES} more`);
    if (isSchema(extra)) out.push(`${inner}[key: string]: ${render(extra, inner, depth + 1)};`);
    out.push(`${indent}}`);
    return out.join('\n');
  }

  return render(schema, '', 0);
}

/** allOf of object schemas as one object (properties and required merged), else undefined. */
function mergeAllOf(s: Schema): Schema | undefined {
  const parts = (s.allOf as unknown[]).filter(isSchema);
  if (parts.some((p) => typeof p.$ref === 'string' || Array.isArray(p.oneOf) || Array.isArray(p.anyOf))) {
    return undefined;
  }
  const properties: Schema = isSchema(s.properties) ? { ...s.properties } : {};
  const required = new Set<unknown>(Array.isArray(s.required) ? s.required : []);
  for (const part of parts) {
    const inner = Array.isArray(part.allOf) ? (mergeAllOf(part) ?? part) : part;
    if (isSchema(inner.properties)) Object.assign(properties, inner.properties);
    if (Array.isArray(inner.required)) for (const r of inner.required) required.add(r);
  }
  const { allOf: _allOf, ...rest } = s;
  return { ...rest, type: 'object', properties, required: [...required] };
}
