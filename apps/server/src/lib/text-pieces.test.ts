import { describe, expect, it } from 'vitest';
import { isStorableText } from './storable-text.ts';
import { parseJsonInPieces, splitText } from './text-pieces.ts';

describe('splitText', () => {
  it('cuts into slices of the size that join to the text', () => {
    const text = 'abcdefghij'.repeat(7);
    const parts = splitText(text, 8);
    expect(parts.join('')).toBe(text);
    expect(parts.slice(0, -1).every((p) => p.length === 8)).toBe(true);
    expect(splitText('', 8)).toEqual([]);
  });

  it('never splits a surrogate pair', () => {
    const text = 'a😀b😀c😀d😀';
    for (let size = 2; size < 6; size++) {
      const parts = splitText(text, size);
      expect(parts.join('')).toBe(text);
      for (const p of parts) expect(isStorableText(p)).toBe(true);
    }
  });
});

describe('parseJsonInPieces', () => {
  const samples: unknown[] = [
    { a: 1, b: [1, 2, { c: 'x' }], d: { e: { f: null, g: true, h: false } } },
    [{ 'q"uote': 'back\\slash\\', '\\': '"', 'ü😀': 'é\n\t\u2028' }, [], {}, [[[]]], -1.5e3, 0],
    { '2': 'integer keys first', b: 1, '1': 'one', a: [' spaced ', '{not json}', '[', ']', ','] },
    { __proto__: { polluted: true }, ordinary: 1 },
    { long: 'x'.repeat(500), list: Array.from({ length: 50 }, (_, i) => ({ i, s: `s${i}` })) },
  ];

  it('equals JSON.parse, key order included, with pieces of any size', async () => {
    for (const sample of samples) {
      for (const spaced of [JSON.stringify(sample), JSON.stringify(sample, null, 2)]) {
        const text = ` ${spaced}\n`;
        for (const pieceChars of [1, 7, 40, 10_000]) {
          const parsed = await parseJsonInPieces(text, { pieceChars });
          expect(parsed).toEqual(JSON.parse(text));
          expect(JSON.stringify(parsed)).toBe(JSON.stringify(JSON.parse(text)));
        }
      }
    }
  });

  it('parses a text given as its pieces (rows) as it parses the text, the pieces cut anywhere', async () => {
    for (const sample of samples) {
      for (const spaced of [JSON.stringify(sample), JSON.stringify(sample, null, 2)]) {
        const text = ` ${spaced}\n`;
        for (const rowChars of [2, 3, 17, 10_000]) {
          const rows = splitText(text, rowChars);
          for (const pieceChars of [1, 7, 40, 10_000]) {
            const parsed = await parseJsonInPieces(rows, { pieceChars });
            expect(JSON.stringify(parsed)).toBe(JSON.stringify(JSON.parse(text)));
          }
        }
      }
    }
    for (const bad of ['{"a":1,}', '[1,2', '{"a":1}x', '{"a":"1}']) {
      await expect(parseJsonInPieces(splitText(bad, 2), { pieceChars: 1 }), bad).rejects.toThrow(SyntaxError);
    }
  });

  it('keeps __proto__ as an own key, never as the prototype', async () => {
    const parsed = (await parseJsonInPieces('{"__proto__":{"polluted":true},"a":1}', {
      pieceChars: 1,
    })) as Record<string, unknown>;
    expect(Object.getPrototypeOf(parsed)).toBe(Object.prototype);
    expect(Object.keys(parsed)).toEqual(['__proto__', 'a']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('refuses invalid JSON', async () => {
    for (const bad of ['{"a":1,}', '{"a" 1}', '[1,2', '{"a":1}x', '{"a":"1}', '[1 2]', '{a:1}']) {
      await expect(parseJsonInPieces(bad, { pieceChars: 1 }), bad).rejects.toThrow(SyntaxError);
    }
  });

  it('gives the event loop a turn while parsing a big text', async () => {
    const big = JSON.stringify({
      paths: Object.fromEntries(
        Array.from({ length: 4000 }, (_, i) => [`/p${i}`, { get: { description: 'd'.repeat(400), i } }]),
      ),
    });
    let turns = 0;
    const ticker = setInterval(() => turns++, 0);
    const parsed = await parseJsonInPieces(big, { pieceChars: 16 * 1024, sliceMs: 1 });
    clearInterval(ticker);
    expect(parsed).toEqual(JSON.parse(big));
    expect(turns).toBeGreaterThan(0);
  });
});
