import { describe, expect, it } from 'vitest';
import { relocateOverlay } from './overlay-relocation.ts';

/** A story's leaves: its title and its steps' contents, in order. */
const leaves = (...steps: string[]) =>
  new Map<string, string>([
    ['/title', 'Tour'],
    ...steps.map((s, i) => [`/steps/${i}/content`, s] as [string, string]),
  ]);
const translated = {
  '/title': 'Rundgang',
  '/steps/0/content': 'Eins',
  '/steps/1/content': 'Zwei',
  '/steps/2/content': 'Drei',
};
const sources = {
  '/title': 'Tour',
  '/steps/0/content': 'One',
  '/steps/1/content': 'Two',
  '/steps/2/content': 'Three',
};

describe('relocateOverlay', () => {
  it('keeps every translation whose English is where it was', () => {
    expect(relocateOverlay(translated, sources, leaves('One', 'Two', 'Three'))).toEqual(translated);
  });

  it('follows reordered texts', () => {
    expect(relocateOverlay(translated, sources, leaves('Three', 'One', 'Two'))).toEqual({
      '/title': 'Rundgang',
      '/steps/0/content': 'Drei',
      '/steps/1/content': 'Eins',
      '/steps/2/content': 'Zwei',
    });
  });

  it('follows a text inserted before the others, the new one staying in the default language', () => {
    expect(relocateOverlay(translated, sources, leaves('Zero', 'One', 'Two', 'Three'))).toEqual({
      '/title': 'Rundgang',
      '/steps/1/content': 'Eins',
      '/steps/2/content': 'Zwei',
      '/steps/3/content': 'Drei',
    });
  });

  it("drops a deleted text's translation instead of showing it under the text that took its place", () => {
    expect(relocateOverlay(translated, sources, leaves('One', 'Three'))).toEqual({
      '/title': 'Rundgang',
      '/steps/0/content': 'Eins',
      '/steps/1/content': 'Drei',
    });
  });

  it('keeps the translation of a text edited in place', () => {
    expect(relocateOverlay(translated, sources, leaves('One', 'Two, now longer', 'Three'))).toEqual(
      translated,
    );
  });

  it('places the same English twice on two leaves, and keeps an overlay without sources as it is', () => {
    const twice = { '/steps/0/content': 'Weiter', '/steps/1/content': 'Weiter!' };
    const from = { '/steps/0/content': 'Next', '/steps/1/content': 'Next' };
    // The same English is the same text wherever it is: one stays, the other takes the free leaf.
    expect(relocateOverlay(twice, from, leaves('Intro', 'Next', 'Next'))).toEqual({
      '/steps/1/content': 'Weiter!',
      '/steps/2/content': 'Weiter',
    });
    expect(relocateOverlay(translated, undefined, leaves('Three', 'One'))).toEqual(translated);
  });
});
