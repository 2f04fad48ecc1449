import { describe, expect, it } from 'vitest';
import { activeHeading, tocWindow, withHeadingIds } from './toc';

describe('table of contents', () => {
  it('gives h1-h3 unique ids and lists them', () => {
    const { html, items } = withHeadingIds(
      '<h1>Intro</h1><p>x</p><h2 id="old">Intro</h2><h4>No</h4><h3>Más <em>é</em> &amp;</h3>',
    );
    expect(items).toEqual([
      { id: 'toc-intro', text: 'Intro', level: 1 },
      { id: 'toc-intro-2', text: 'Intro', level: 2 },
      { id: 'toc-mas-e', text: 'Más é &', level: 3 },
    ]);
    expect(html).toContain('<h2 id="toc-intro-2">');
  });

  it('shows the items from active-6 to active+12', () => {
    const all = Array.from({ length: 30 }, (_, i) => i);
    expect(tocWindow(all, 0)).toEqual({ start: 0, items: all.slice(0, 13) });
    expect(tocWindow(all, 10)).toEqual({ start: 4, items: all.slice(4, 23) });
    expect(tocWindow(all, 29).items.at(-1)).toBe(29);
  });

  it('activates the last heading passed, and the last one near the bottom', () => {
    const tops = [50, 300, 900];
    const view = { scrollY: 0, innerHeight: 800, scrollHeight: 5000 };
    expect(activeHeading(tops, view)).toBe(0);
    expect(activeHeading([-400, 100, 900], view)).toBe(1);
    expect(activeHeading(tops, { ...view, scrollY: 4141 })).toBe(2);
    expect(activeHeading(tops, { ...view, scrollY: 4100 })).toBe(0);
    expect(activeHeading([], view)).toBe(-1);
  });
});
