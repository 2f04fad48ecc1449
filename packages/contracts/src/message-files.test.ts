import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { LOCALES } from './locales.ts';

/**
 * The message files of every part of the portal (issue 30, decision 057): each `locales/` folder
 * under apps/ and packages/ has one folder per language of contracts' LOCALES, and every language
 * has the same namespaces (`<namespace>.json`) with the same keys and the same placeholders. A key
 * or a file added in one language and not in the other fails here, in CI.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const SKIP = new Set(['node_modules', 'dist', 'coverage', '.git']);

function localeFolders(dir: string, found: string[] = []): string[] {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (!entry.isDirectory() || SKIP.has(entry.name)) continue;
    const full = path.join(dir, entry.name);
    if (entry.name === 'locales') found.push(full);
    else localeFolders(full, found);
  }
  return found;
}

/** Every message of a file as dotted key → text (nested objects are key paths). */
function flatten(node: unknown, prefix = '', into = new Map<string, string>()): Map<string, string> {
  if (typeof node === 'string') into.set(prefix, node);
  else if (node && typeof node === 'object' && !Array.isArray(node)) {
    for (const [key, value] of Object.entries(node)) flatten(value, prefix ? `${prefix}.${key}` : key, into);
  } else into.set(prefix, `<not a message: ${JSON.stringify(node)}>`);
  return into;
}

const placeholders = (text: string) => [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]).sort();

const folders = ['apps', 'packages'].flatMap((top) => localeFolders(path.join(root, top)));

describe('message files', () => {
  it('are found (the web app has its own)', () => {
    expect(folders.map((f) => path.relative(root, f))).toContain(path.join('apps', 'web', 'src', 'locales'));
  });

  describe.each(folders.map((f) => [path.relative(root, f), f]))('%s', (_name, folder) => {
    const languages = fs
      .readdirSync(folder, { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => e.name);
    const files = (lng: string) =>
      fs.existsSync(path.join(folder, lng))
        ? fs.readdirSync(path.join(folder, lng)).filter((f) => f.endsWith('.json'))
        : [];
    const namespaces = [...new Set(languages.flatMap(files))].sort();

    it('has a folder for every language and only for those', () => {
      expect(languages.sort()).toEqual([...LOCALES].sort());
    });

    it('has every namespace in every language', () => {
      for (const lng of LOCALES) {
        const missing = namespaces.filter((ns) => !files(lng).includes(ns));
        expect(missing, `${lng}/ lacks these namespaces`).toEqual([]);
      }
    });

    it.each(namespaces)('%s: the same keys and placeholders in every language', (ns) => {
      const read = (lng: string) => {
        const file = path.join(folder, lng, ns);
        return fs.existsSync(file)
          ? flatten(JSON.parse(fs.readFileSync(file, 'utf8')))
          : new Map<string, string>();
      };
      const [first, ...others] = LOCALES;
      const base = read(first);
      for (const lng of others) {
        const other = read(lng);
        const onlyIn = (a: Map<string, string>, b: Map<string, string>) =>
          [...a.keys()].filter((k) => !b.has(k));
        expect(onlyIn(base, other), `keys in ${first}/${ns} but not in ${lng}/${ns}`).toEqual([]);
        expect(onlyIn(other, base), `keys in ${lng}/${ns} but not in ${first}/${ns}`).toEqual([]);
        for (const [key, text] of base) {
          expect(placeholders(other.get(key) ?? ''), `placeholders of ${key} in ${lng}/${ns}`).toEqual(
            placeholders(text),
          );
        }
        for (const [key, text] of [...base, ...other]) {
          expect(text, `${key} is not a message`).not.toMatch(/^<not a message/);
        }
      }
    });
  });
});
