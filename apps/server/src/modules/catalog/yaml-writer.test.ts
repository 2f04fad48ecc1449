import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { describe, expect, test } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { yamlBytes, yamlPieces } from './yaml-writer.ts';

const yamlStream = (doc: unknown) => Readable.from([Buffer.from(yamlBytes(doc))]);

const require = createRequire(import.meta.url);
const examples = path.dirname(require.resolve('@readme/oas-examples/package.json'));

describe('the YAML download (yaml-writer.ts)', () => {
  test('reads back as the same value, whatever the strings hold', async () => {
    const doc = {
      plain: 'Accounts API',
      reserved: [
        'true',
        'No',
        'null',
        '~',
        'y',
        '1.0',
        '3.1.0',
        '1.2.3.4',
        '0x1f',
        '2024-01-01',
        '',
        ' lead',
        'trail ',
      ],
      syntax: [
        'a: b',
        'x #y',
        '- z',
        '{a}',
        '[b]',
        '*ref',
        '&anchor',
        '!tag',
        '%x',
        '@at',
        '`tick`',
        "'q'",
        '"q"',
      ],
      multi: [
        'line 1\nline 2',
        'ends\n',
        'two\n\n',
        '\nstarts',
        'tab\there\n  indented',
        'trailing \nspace',
        'é ü 中文 😀\nnext',
        'cr\r\nlf',
      ],
      numbers: [0, -1.5, 1e21, true, false, null],
      nested: [[1, [2]], [], {}, [{ a: { b: [{ c: 'd' }] } }], { '': 'empty key', 'a b': 1, '200': 'code' }],
      deep: { a: { b: { c: { d: { e: ['f', { g: 'h\ni' }] } } } } },
    };
    expect(parseYaml(await text(yamlStream(doc)))).toEqual(doc);
  });

  test('is the UTF-8 of the pieces, in a buffer of its own that can be moved', () => {
    // Over a megabyte, so that it is written in several parts, with non-ASCII text throughout.
    const doc = {
      info: { title: 'Café ☕ 中文 😀', description: 'é ü\nnext 😀' },
      paths: Object.fromEntries(
        Array.from({ length: 12_000 }, (_, i) => [
          `/things/${i}/ünïcode`,
          { get: { summary: `Ding ${i}: Größe 中文 😀`, description: `line ${i}\nzweite Zeile é` } },
        ]),
      ),
    };
    const bytes = yamlBytes(doc);
    expect(bytes.byteLength).toBeGreaterThan(1.5 * 1024 * 1024);
    expect(bytes.byteOffset).toBe(0);
    expect(bytes.byteLength).toBe(bytes.buffer.byteLength);
    const pieces = [...yamlPieces(doc, '', 0)].join('');
    expect(new TextDecoder('utf-8', { fatal: true }).decode(bytes)).toBe(pieces);
    const moved = structuredClone(bytes, { transfer: [bytes.buffer] });
    expect(bytes.byteLength).toBe(0);
    // The moved buffer holds the same text. That the pieces read back as the document is the other
    // tests' concern: `yaml` takes 3-5 s to parse these 1.8 MB, more than a unit test's time on a
    // busy machine (the clean-clone run's one failure).
    expect(new TextDecoder('utf-8', { fatal: true }).decode(moved)).toBe(pieces);
    const hundred = pieces.lastIndexOf('\n', pieces.indexOf('/things/100/'));
    expect(hundred).toBeGreaterThan(0);
    expect(parseYaml(pieces.slice(0, hundred))).toEqual({
      info: doc.info,
      paths: Object.fromEntries(Object.entries(doc.paths).slice(0, 100)),
    });
  });

  test('every sample document of @readme/oas-examples', async () => {
    for (const version of ['2.0', '3.0', '3.1']) {
      for (const file of fs.readdirSync(path.join(examples, version, 'json'))) {
        if (!file.endsWith('.json')) continue;
        const doc = JSON.parse(fs.readFileSync(path.join(examples, version, 'json', file), 'utf8')) as Record<
          string,
          unknown
        >;
        expect(parseYaml(await text(yamlStream(doc)), { maxAliasCount: -1 }), file).toEqual(doc);
      }
    }
  }, 60_000);
});
