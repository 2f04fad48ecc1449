import { createRequire } from 'node:module';
import type { ValidateFunction } from 'ajv/dist/2020.js';

const requireHere = createRequire(import.meta.url);

/**
 * What Ajv's standalone code requires: its runtime helpers (`ajv/dist/runtime/...`) and the formats
 * of ajv-formats. Nothing else, whatever a generated module asks for.
 */
function requireRuntime(id: string): unknown {
  if (!/^ajv(-formats)?\/dist\/[\w/.-]+$/.test(id) || id.includes('..')) {
    throw new Error(`standalone validation code may not require '${id}'`);
  }
  return requireHere(id);
}

/**
 * Evaluates a CommonJS module of Ajv standalone code (validator-code.ts, generated in a worker):
 * its exports, validate functions. V8 parses the text lazily, so this costs a few milliseconds
 * where Ajv's compile of the same schemas costs a hundred.
 */
export function evaluateStandalone(code: string): Record<string, ValidateFunction> {
  const module = { exports: {} as Record<string, ValidateFunction> };
  if (!code) return module.exports;
  // The same evaluation Ajv's compile does (it builds its validators with `new Function` from the
  // code it generated from the document's schemas); here the code was generated in a worker.
  const evaluate = new Function('require', 'module', 'exports', code) as (
    r: typeof requireRuntime,
    m: typeof module,
    e: typeof module.exports,
  ) => void;
  evaluate(requireRuntime, module, module.exports);
  return module.exports;
}
