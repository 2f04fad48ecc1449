import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { describe, expect, test } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { yamlBytes } from './yaml-writer.ts';

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
