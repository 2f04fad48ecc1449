import { describe, expect, it } from 'vitest';
import { linkedAliases } from './links.ts';

describe('linkedAliases: the links to a page being deleted or moved', () => {
  const gone = new Set(['/blog/x', '/about']);

  it('finds a link written exactly', () => {
    expect(linkedAliases(['See [x](/blog/x).'], gone)).toEqual(['/blog/x']);
  });

  it('treats a trailing slash, a query string, a #fragment and case as the same page', () => {
    for (const link of ['/blog/x/', '/blog/x#part', '/blog/x?ref=news', '/blog/x/?a=1#b', '/Blog/X'])
      expect(linkedAliases([`Read [it](${link}) now.`], gone), link).toEqual(['/blog/x']);
    expect(linkedAliases(['<a href="/about/#team">Team</a>'], gone)).toEqual(['/about']);
  });

  it('does not take a longer address for the page', () => {
    expect(linkedAliases(['[x](/blog/x-two) [a](/about-us) [b](/about/team)'], gone)).toEqual([]);
  });

  it('counts an image field that is the address itself, and skips empty texts', () => {
    expect(linkedAliases([null, '/about?x=1'], gone)).toEqual(['/about']);
  });

  it('names each page once, sorted', () => {
    expect(linkedAliases(['[a](/blog/x/) [b](/about) [c](/blog/x#y)'], gone)).toEqual(['/about', '/blog/x']);
  });
});
