import fc from 'fast-check';
import { Marked } from 'marked';
import { describe, expect, it } from 'vitest';
import { plainParagraphs } from './plain-markdown';

const parser = new Marked({ gfm: true, breaks: false, async: false });
const escape = (s: string) =>
  s
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
/** What the parser would make of a text the fast path accepted. */
const asHtml = (paragraphs: string[]) => paragraphs.map((p) => `<p>${escape(p)}</p>\n`).join('');

describe('plainParagraphs', () => {
  it('takes plain sentences as paragraphs, split at blank lines', () => {
    expect(plainParagraphs('Endpoints to manage GitHub Actions using the REST API.')).toEqual([
      'Endpoints to manage GitHub Actions using the REST API.',
    ]);
    expect(plainParagraphs("It's one.\nStill one.\n\n\nTwo (2)?")).toEqual([
      "It's one.\nStill one.",
      'Two (2)?',
    ]);
    expect(plainParagraphs('')).toEqual([]);
  });

  it('leaves anything that may be Markdown to the parser', () => {
    for (const text of [
      'See [the guide](https://example.com).',
      'Use `code` here',
      '*emphasis*',
      '- a list item',
      '1. first',
      '2) second',
      'A heading\n===',
      '    indented code',
      'hard  \nbreak',
      'Visit www.example.com',
      'mail me@example.com',
      'a &amp; b',
      '<b>html</b>',
      '# Title',
      '> quote',
      'a | b',
      'tab\tseparated',
    ]) {
      expect(plainParagraphs(text), text).toBeNull();
    }
  });

  it('renders exactly what the CommonMark parser renders, whenever it applies', () => {
    const alphabet = [...'aZé1 \n.,;?\'"()/%$+=-', '\n\n', '  ', '1.', 'www.', '-'];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...alphabet), { maxLength: 40 }), (parts) => {
        const text = parts.join('');
        const paragraphs = plainParagraphs(text);
        if (paragraphs === null) return;
        expect(asHtml(paragraphs)).toBe(parser.parse(text, { async: false }));
      }),
      { numRuns: 3000 },
    );
  });
});
