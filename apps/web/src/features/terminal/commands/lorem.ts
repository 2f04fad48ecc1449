import {
  LOREM_DEFAULT_PARAGRAPHS,
  LOREM_DEFAULT_SENTENCES,
  LOREM_WORDS_MAX,
  LOREM_WORDS_MIN,
} from '@portico/contracts/terminal';
import { t } from '../../../lib/i18n';
import type { Command } from '../registry';

const WORDS = (
  'lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor incididunt ut labore et ' +
  'dolore magna aliqua enim ad minim veniam quis nostrud exercitation ullamco laboris nisi aliquip ex ea ' +
  'commodo consequat duis aute irure in reprehenderit voluptate velit esse cillum fugiat nulla pariatur ' +
  'excepteur sint occaecat cupidatat non proident sunt culpa qui officia deserunt mollit anim id est laborum'
).split(' ');

const between = (min: number, max: number, random: () => number) =>
  min + Math.floor(random() * (max - min + 1));

/** One sentence of 4 to 16 words, capitalised, ending with a full stop (spec B 9). */
export function loremSentence(random: () => number = Math.random): string {
  const count = between(LOREM_WORDS_MIN, LOREM_WORDS_MAX, random);
  const words = Array.from({ length: count }, () => WORDS[Math.floor(random() * WORDS.length)]!);
  const text = words.join(' ');
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}.`;
}

/** `paragraphs` paragraphs of `sentences` sentences each. */
export function loremParagraphs(
  paragraphs: number,
  sentences: number,
  random: () => number = Math.random,
): string[] {
  return Array.from({ length: paragraphs }, () =>
    Array.from({ length: sentences }, () => loremSentence(random)).join(' '),
  );
}

/** A count: digits only (the spec's messages say 'must be a number'). */
const countProblem = (message: string) => (v: string) => (/^\d+$/.test(v.trim()) ? null : message);

/** lorem [paragraphs] [sentences]: placeholder text; defaults 1 paragraph of 4 sentences. */
export const lorem: Command = {
  name: 'lorem',
  description: t('terminal.help.lorem'),
  usage: 'lorem [paragraphs] [sentences]',
  inputs: [
    {
      name: 'paragraphs',
      label: t('terminal.inputs.paragraphs'),
      kind: 'text',
      optional: true,
      validate: countProblem(t('terminal.paragraphsNaN')),
    },
    {
      name: 'sentences',
      label: t('terminal.inputs.sentences'),
      kind: 'text',
      optional: true,
      validate: countProblem(t('terminal.sentencesNaN')),
    },
  ],
  run(values, ctx) {
    // At most 50 of each: a typo should not fill the screen for minutes.
    const paragraphs = Math.min(50, Number(values.paragraphs ?? LOREM_DEFAULT_PARAGRAPHS));
    const sentences = Math.min(50, Number(values.sentences ?? LOREM_DEFAULT_SENTENCES));
    loremParagraphs(paragraphs, sentences).forEach((p, i) => {
      if (i) ctx.print();
      ctx.print(p);
    });
  },
};
