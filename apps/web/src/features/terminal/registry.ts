/**
 * The terminal's command registry (spec B 2.17, 4 'Terminal', 5 'Terminal input'): a command is a
 * name, the inputs it asks for, and a run function. A new command is one file in commands/ and one
 * line in commands/index.ts. Nothing here touches the DOM: parsing and validation are unit-tested
 * without a browser.
 */

/** What a command may do to its surroundings; the terminal window provides it. */
export interface TerminalContext {
  /** Prints one line (may contain ANSI colours). */
  print(line?: string): void;
  printError(line: string): void;
  clear(): void;
  minify(): void;
  navigate(path: string): void;
  /** Runs a full-window program (snake) until it ends. */
  play(program: 'snake'): Promise<void>;
  /** Aborted by Ctrl+C. */
  signal: AbortSignal;
  /** The terminal's own cache of lists the inputs need (applications, organizations, products). */
  lookup<T>(key: string, load: () => Promise<T>): Promise<T>;
  /** The portal's data changed (an application was created or subscribed): cached lists refresh. */
  changed(): void;
  /** The other commands, for help. */
  commands: readonly Command[];
}

export type Values = Record<string, string | string[] | undefined>;

export interface Choice {
  /** What the user types (and tab completes). */
  label: string;
  /** What the command receives. */
  value: string;
}

export interface InputSpec {
  name: string;
  /** The prompt text. */
  label: string;
  /**
   * The prompt text when it depends on the answers before it (a confirmation names what it
   * confirms); `label` names the input elsewhere.
   */
  question?: (values: Values, ctx: TerminalContext) => Promise<string> | string;
  /**
   * text: a single value; yesno: Yes or No; multi: a list, one value per line, an empty line ends
   * it; choice: one of `choices`; multichoice: a list of `choices`.
   */
  kind: 'text' | 'yesno' | 'multi' | 'choice' | 'multichoice';
  /** Optional inputs are not asked: they are taken from the command line or left out. */
  optional?: boolean | ((values: Values) => boolean);
  /** A suggested value: an empty answer takes it. */
  defaultValue?: (values: Values, ctx: TerminalContext) => Promise<string | undefined> | string | undefined;
  /** The allowed values of choice inputs (loaded when the input is asked). */
  choices?: (values: Values, ctx: TerminalContext) => Promise<Choice[]> | Choice[];
  /** Words tab completes for a free-text input (help: the command names). */
  suggest?: (ctx: TerminalContext) => string[];
  /** Further checks of one value: a message, or null when it is fine. */
  validate?: (value: string, values: Values) => string | null;
  /** The message for a value outside the choices, when not the generic one (go: 'Title is not valid'). */
  invalidChoiceMessage?: string;
}

export interface Command {
  name: string;
  /** help's one-line description. */
  description: string;
  /** e.g. 'lorem [paragraphs] [sentences]'. */
  usage: string;
  inputs: InputSpec[];
  /** Checked before any input is asked: a message ends the command there (nothing to choose from). */
  precheck?(ctx: TerminalContext): Promise<string | null>;
  run(values: Values, ctx: TerminalContext): Promise<void> | void;
}

export function isOptional(input: InputSpec, values: Values): boolean {
  return typeof input.optional === 'function' ? input.optional(values) : input.optional === true;
}

/** A parsed command line: the command name, positional arguments and --name=value options. */
export interface ParsedLine {
  name: string;
  args: string[];
  options: Record<string, string>;
}

/**
 * Splits a command line into words: whitespace separates them, single or double quotes group words
 * ('go "My App"'), a backslash escapes the next character. `--name=value` is an option.
 */
export function parseLine(line: string): ParsedLine {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  let quote: '"' | "'" | null = null;
  for (let i = 0; i < line.length; i += 1) {
    const ch = line[i]!;
    if (ch === '\\' && i + 1 < line.length) {
      word += line[(i += 1)];
      inWord = true;
    } else if (quote) {
      if (ch === quote) quote = null;
      else word += ch;
    } else if (ch === '"' || ch === "'") {
      quote = ch;
      inWord = true;
    } else if (/\s/.test(ch)) {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
    } else {
      word += ch;
      inWord = true;
    }
  }
  if (inWord) words.push(word);
  const [name = '', ...rest] = words;
  const args: string[] = [];
  const options: Record<string, string> = {};
  for (const w of rest) {
    const m = /^--([A-Za-z][\w-]*)=(.*)$/s.exec(w);
    if (m) options[m[1]!] = m[2]!;
    else args.push(w);
  }
  return { name: name.toLowerCase(), args, options };
}

/**
 * The values a command line already gives: options by input name, then positional arguments to the
 * inputs in order (the last input takes what is left when it is a list; a single-valued input takes
 * one word, so `go My App` names 'My App' only when the title is its only input).
 */
export function knownValues(command: Command, parsed: ParsedLine): Values {
  const values: Values = {};
  const multi = (i: InputSpec) => i.kind === 'multi' || i.kind === 'multichoice';
  for (const input of command.inputs) {
    const given = parsed.options[input.name];
    if (given !== undefined) values[input.name] = multi(input) ? splitList(given) : given;
  }
  const args = [...parsed.args];
  const open = command.inputs.filter((i) => values[i.name] === undefined);
  open.forEach((input, index) => {
    if (!args.length) return;
    const last = index === open.length - 1;
    if (multi(input)) values[input.name] = last ? args.splice(0) : splitList(args.shift()!);
    else values[input.name] = last && open.length === 1 ? args.splice(0).join(' ') : args.shift();
  });
  return values;
}

function splitList(value: string): string[] {
  return value
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean);
}

/** Commands whose name starts with `prefix`, for tab completion. */
export function completeFrom(prefix: string, candidates: readonly string[]): string[] {
  const p = prefix.toLowerCase();
  return candidates.filter((c) => c.toLowerCase().startsWith(p));
}

/** The longest start every candidate shares (what tab can fill in when several match). */
export function commonPrefix(candidates: readonly string[]): string {
  if (!candidates.length) return '';
  let prefix = candidates[0]!;
  for (const c of candidates.slice(1)) {
    let i = 0;
    while (i < prefix.length && i < c.length && prefix[i]!.toLowerCase() === c[i]!.toLowerCase()) i += 1;
    prefix = prefix.slice(0, i);
  }
  return prefix;
}
