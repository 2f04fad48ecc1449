import { describe, expect, it } from 'vitest';
import { blankStep, formStepsOf, pagesOf, stepsOf } from './story-steps';

describe("a Quick Start story's steps in the console's form", () => {
  const steps = [
    { target: '#main', content: 'Welcome.', navigationUrl: '/', spotlightClicks: false },
    { target: '[data-tour="send"]', content: 'Press Send.', spotlightClicks: true, styles: { width: 400 } },
  ];

  it('round-trips the steps, each with a key of its own, a missing page as an empty field', () => {
    const form = formStepsOf(steps);
    expect(new Set(form.map((s) => s.key)).size).toBe(2);
    expect(form[1]!.navigationUrl).toBe('');
    expect(stepsOf(form)).toEqual(steps);
  });

  it('sends trimmed texts and no page for a blank one', () => {
    const step = { ...blankStep(), target: ' main h1 ', content: ' Hi. ', navigationUrl: '  ' };
    expect(stepsOf([step])).toEqual([{ target: 'main h1', content: 'Hi.', spotlightClicks: false }]);
  });

  it('gives blank steps different keys', () => {
    expect(blankStep().key).not.toBe(blankStep().key);
  });

  it('names the page every step happens on, the one before when it has none', () => {
    expect(pagesOf([{ navigationUrl: '' }, { navigationUrl: '/a' }, { navigationUrl: '' }])).toEqual([
      null,
      '/a',
      '/a',
    ]);
  });
});
