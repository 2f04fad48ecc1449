/**
 * FROZEN (decision 044): a copy, for migration 0110-bundled-documents only, of apps/server/src/openapi/parse.ts as it was
 * when the migration was frozen (commit 78cc827), less what the migration does not use. Never edit it, whatever the library becomes: a
 * migration that ran must do the same on every database that has not run it yet. It imports only
 * packages and the files of this folder.
 */
import { parse as parseYaml, YAMLParseError } from 'yaml';
import { OpenApiImportError } from './problems.ts';

export type SourceFormat = 'json' | 'yaml';

export interface ParsedSource {
  format: SourceFormat;
  doc: Record<string, unknown>;
}

/** The largest document accepted (GitHub's public description is about 12 MB of JSON). */
export const MAX_SOURCE_BYTES = 64 * 1024 * 1024;

function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  return { line, column: offset - before.lastIndexOf('\n') };
}

/**
 * Reads an OpenAPI document written as JSON or YAML. JSON is recognised by its first character and
 * parsed with JSON.parse (much faster than a YAML parser on large documents).
 */
export function parseSource(text: string, filename?: string): ParsedSource {
  if (Buffer.byteLength(text) > MAX_SOURCE_BYTES) {
    throw new OpenApiImportError('The document is too large.', [
      { path: '', message: `larger than ${MAX_SOURCE_BYTES / 1024 / 1024} MB` },
    ]);
  }
  const body = text.replace(/^\uFEFF/, '');
  const looksJson = /^\s*[{[]/.test(body) || /\.json$/i.test(filename ?? '');
  let doc: unknown;
  let format: SourceFormat;
  if (looksJson) {
    format = 'json';
    try {
      doc = JSON.parse(body);
    } catch (err) {
      const message = (err as Error).message;
      const at = /position (\d+)/.exec(message);
      const where = at ? lineAndColumn(body, Number(at[1])) : {};
      throw new OpenApiImportError('The document is not valid JSON.', [
        { path: '', message: message.replace(/\s*\(line \d+ column \d+\)$/, ''), ...where },
      ]);
    }
  } else {
    format = 'yaml';
    try {
      // maxAliasCount guards against "billion laughs" documents.
      doc = parseYaml(body, { maxAliasCount: 1000, prettyErrors: true, uniqueKeys: true });
    } catch (err) {
      if (err instanceof YAMLParseError) {
        const pos = err.linePos?.[0];
        throw new OpenApiImportError('The document is not valid YAML.', [
          {
            path: '',
            message: err.message.split('\n')[0]!,
            ...(pos ? { line: pos.line, column: pos.col } : {}),
          },
        ]);
      }
      throw err;
    }
  }
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) {
    throw new OpenApiImportError('The document is not an OpenAPI description.', [
      { path: '', message: 'must be an object with an "openapi" or "swagger" field' },
    ]);
  }
  return { format, doc: doc as Record<string, unknown> };
}
