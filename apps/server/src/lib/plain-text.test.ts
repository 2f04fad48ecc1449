import { describe, expect, it } from 'vitest';
import { plainText } from './plain-text.ts';

describe('plainText', () => {
  it('strips tags and collapses white space', () => {
    expect(plainText('<p>Send <b>SEPA</b>\n  credit transfers</p><p>in seconds.</p>')).toBe(
      'Send SEPA credit transfers in seconds.',
    );
    expect(plainText(null)).toBe('');
    expect(plainText(undefined)).toBe('');
    expect(plainText('<img src=x onerror="alert(1)">')).toBe('');
  });

  it('drops what scripts, styles and form controls hold', () => {
    expect(plainText('<script>alert(1)</script><style>p{}</style><p>a</p><textarea>t</textarea>')).toBe('a');
  });

  it('decodes entities once: an escaped entity stays text', () => {
    expect(plainText('<p>a&nbsp;b &amp; c &lt;d&gt; &quot;e&quot; &#39;f&#x27; &apos;</p>')).toBe(
      `a b & c <d> "e" 'f' '`,
    );
    expect(plainText('<p>&amp;lt;b&amp;gt;</p>')).toBe('&lt;b&gt;');
    expect(plainText('<p>&#128512;</p>')).toBe('😀');
  });

  it('with lines, keeps paragraphs and line breaks as lines', () => {
    expect(
      plainText('<p>First  line<br>second<br/>third</p><p>  Next <em>one</em> </p>', { lines: true }),
    ).toBe('First line\nsecond\nthird\nNext one');
    expect(plainText('<p>Use &lt;b&gt; &amp; co.</p>', { lines: true })).toBe('Use <b> & co.');
  });
});
