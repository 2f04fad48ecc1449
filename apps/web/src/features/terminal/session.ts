import { t } from '../../lib/i18n';
import {
  isOptional,
  type Choice,
  type Command,
  type InputSpec,
  type TerminalContext,
  type Values,
} from './registry';

/**
 * Asking a command's inputs (spec B 4 'Terminal', 5 'Terminal input'): in order, skipping optional
 * inputs and the ones the command line already gave, until none is left. Pure: the terminal window
 * prints the prompts and feeds the answers.
 */

export type Answer = { value: string } | { error: string };

const isList = (input: InputSpec) => input.kind === 'multi' || input.kind === 'multichoice';

function invalidChoice(input: InputSpec, value: string, choices: readonly Choice[]): string {
  return (
    input.invalidChoiceMessage ??
    t('terminal.valueInvalid', { value, allowed: choices.map((c) => c.label).join(', ') })
  );
}

/** One value of a choice input: the choice whose label (or value) it names, ignoring case. */
function matchChoice(value: string, choices: readonly Choice[]): Choice | undefined {
  const v = value.toLowerCase();
  return choices.find((c) => c.label.toLowerCase() === v) ?? choices.find((c) => c.value.toLowerCase() === v);
}

/**
 * Checks one answer to a single-valued input. An empty answer takes the suggested default, else
 * 'Value required'; yes/no accepts only Yes or No; a choice must be one of the allowed values.
 */
export function checkSingle(
  input: InputSpec,
  raw: string,
  options: { choices?: readonly Choice[]; defaultValue?: string; values?: Values } = {},
): Answer {
  let value = raw.trim();
  if (!value) {
    if (options.defaultValue === undefined || options.defaultValue === '')
      return { error: t('terminal.valueRequired') };
    value = options.defaultValue;
  }
  if (input.kind === 'yesno') {
    if (/^yes$/i.test(value)) return { value: 'Yes' };
    if (/^no$/i.test(value)) return { value: 'No' };
    return { error: t('terminal.expectedYesNo') };
  }
  if (input.kind === 'choice') {
    const choice = matchChoice(value, options.choices ?? []);
    if (!choice) return { error: invalidChoice(input, value, options.choices ?? []) };
    value = choice.value;
  }
  const problem = input.validate?.(value, options.values ?? {});
  return problem ? { error: problem } : { value };
}

/** Checks one more value of a list input: no duplicates, allowed values only, the input's own rule. */
export function checkListValue(
  input: InputSpec,
  raw: string,
  current: readonly string[],
  options: { choices?: readonly Choice[]; values?: Values } = {},
): Answer {
  let value = raw.trim();
  if (input.kind === 'multichoice') {
    const choice = matchChoice(value, options.choices ?? []);
    if (!choice) return { error: invalidChoice(input, value, options.choices ?? []) };
    value = choice.value;
  }
  if (current.includes(value)) return { error: t('terminal.valueExists', { value: raw.trim() }) };
  const problem = input.validate?.(value, options.values ?? {});
  return problem ? { error: problem } : { value };
}

/** Whether a finished list is acceptable: at least one value unless the input is optional. */
export function checkListEnd(input: InputSpec, current: readonly string[], values: Values): string | null {
  return current.length || isOptional(input, values) ? null : t('terminal.atLeastOne');
}

/** What the terminal shows while an input is asked. */
export interface Prompt {
  input: InputSpec;
  /** 'Title: ', 'Organization [Acme]: ', 'Allowed grant types (one value per line...): '. */
  text: string;
  choices: Choice[];
  defaultValue?: string;
}

/**
 * The dialogue of one command: `start` checks what the command line gave and returns the first
 * prompt (or null when nothing is left to ask); `answer` takes one line and returns an error to
 * print, the next prompt, or null when every input has a value.
 */
export class InputDialogue {
  readonly values: Values;
  private list: string[] = [];
  private current: Prompt | null = null;
  /** Inputs whose value was checked (given on the command line or answered). */
  private readonly checked: Record<string, boolean> = {};
  /** Errors found in the command line's own values, to print before the first prompt. */
  readonly errors: string[] = [];
  /** A value the command line gave was wrong and cannot be asked again: the command does not run. */
  failed = false;

  readonly command: Command;
  private readonly ctx: TerminalContext;

  constructor(command: Command, known: Values, ctx: TerminalContext) {
    this.command = command;
    this.ctx = ctx;
    this.values = { ...known };
  }

  get prompt(): Prompt | null {
    return this.current;
  }

  async start(): Promise<Prompt | null> {
    return this.advance();
  }

  /** Moves to the next input without a value, checking the values the command line gave on the way. */
  private async advance(): Promise<Prompt | null> {
    for (const input of this.command.inputs) {
      const given = this.values[input.name];
      if (given !== undefined && !(input.name in this.checked)) {
        const choices = input.choices ? await input.choices(this.values, this.ctx) : [];
        const error = this.checkGiven(input, given, choices);
        this.checked[input.name] = true;
        if (error) {
          this.errors.push(error);
          delete this.values[input.name];
          // An optional input is never asked: its bad value ends the command.
          if (isOptional(input, this.values)) {
            this.failed = true;
            this.current = null;
            return null;
          }
        } else continue;
      }
      if (this.values[input.name] !== undefined) continue;
      if (isOptional(input, this.values)) continue;
      const choices = input.choices ? await input.choices(this.values, this.ctx) : [];
      const defaultValue = await input.defaultValue?.(this.values, this.ctx);
      this.list = [];
      const hint = isList(input) ? ` ${t('terminal.multiHint')}` : input.kind === 'yesno' ? ' (Yes/No)' : '';
      const suggested = defaultValue ? ` [${defaultValue}]` : '';
      const label = input.question ? await input.question(this.values, this.ctx) : input.label;
      this.current = { input, text: `${label}${suggested}${hint}: `, choices, defaultValue };
      return this.current;
    }
    this.current = null;
    return null;
  }

  private checkGiven(input: InputSpec, given: string | string[], choices: Choice[]): string | null {
    if (isList(input)) {
      const list: string[] = [];
      for (const raw of Array.isArray(given) ? given : [given]) {
        const answer = checkListValue(input, raw, list, { choices, values: this.values });
        if ('error' in answer) return answer.error;
        list.push(answer.value);
      }
      const end = checkListEnd(input, list, this.values);
      if (end) return end;
      this.values[input.name] = list;
      return null;
    }
    const answer = checkSingle(input, Array.isArray(given) ? given.join(' ') : given, {
      choices,
      values: this.values,
    });
    if ('error' in answer) return answer.error;
    this.values[input.name] = answer.value;
    return null;
  }

  /** One line typed at the current prompt. */
  async answer(line: string): Promise<{ error?: string; prompt: Prompt | null; done: boolean }> {
    const prompt = this.current;
    if (!prompt) return { prompt: null, done: true };
    const { input } = prompt;
    if (isList(input)) {
      if (!line.trim()) {
        const error = checkListEnd(input, this.list, this.values);
        if (error) return { error, prompt, done: false };
        this.values[input.name] = [...this.list];
        this.checked[input.name] = true;
        const next = await this.advance();
        return { prompt: next, done: next === null };
      }
      const answer = checkListValue(input, line, this.list, { choices: prompt.choices, values: this.values });
      if ('error' in answer) return { error: answer.error, prompt, done: false };
      this.list.push(answer.value);
      return { prompt, done: false };
    }
    const answer = checkSingle(input, line, {
      choices: prompt.choices,
      defaultValue: prompt.defaultValue,
      values: this.values,
    });
    if ('error' in answer) return { error: answer.error, prompt, done: false };
    this.values[input.name] = answer.value;
    this.checked[input.name] = true;
    const next = await this.advance();
    return { prompt: next, done: next === null };
  }

  /** Values the current list input collected so far (shown nowhere; for tests). */
  get pending(): readonly string[] {
    return this.list;
  }
}
