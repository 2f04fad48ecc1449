import { messageOf } from '../../lib/api-client';
import { t } from '../../lib/i18n';
import { commands, findCommand } from './commands';
import {
  commonPrefix,
  completeFrom,
  knownValues,
  parseLine,
  type Command,
  type TerminalContext,
} from './registry';
import { InputDialogue, type Prompt } from './session';
import { historyStep, useTerminalStore } from './store';

/**
 * The terminal's line discipline, apart from xterm so that it can be read on its own: what a key
 * does (type, Backspace, Enter, Tab, arrows, Ctrl+C), which prompt shows, and running a command
 * with its input dialogue. The window hands it an `Output` (the xterm instance) and the services a
 * command may use.
 */
export interface Output {
  write(text: string): void;
  clear(): void;
}

export type Services = Omit<
  TerminalContext,
  'print' | 'printError' | 'clear' | 'signal' | 'lookup' | 'commands'
>;

const COMMAND_PROMPT = '\x1b[1;32m$\x1b[0m ';
const RED = '\x1b[91m';
const RESET = '\x1b[0m';

type Mode = 'idle' | 'input' | 'running';

export class TerminalController {
  private buffer = '';
  private mode: Mode = 'idle';
  private dialogue: InputDialogue | null = null;
  private abort = new AbortController();
  /** Bumped by Ctrl+C: the output of a command that was interrupted is dropped. */
  private generation = 0;
  private cache = new Map<string, Promise<unknown>>();
  private typeAhead: string[] = [];

  private readonly out: Output;
  private readonly services: Services;

  constructor(out: Output, services: Services) {
    this.out = out;
    this.services = services;
  }

  private get store() {
    return useTerminalStore.getState();
  }

  private promptText(): string {
    return this.mode === 'input' && this.dialogue?.prompt ? this.dialogue.prompt.text : COMMAND_PROMPT;
  }

  private println(text = '', gen = this.generation) {
    if (gen !== this.generation) return;
    this.out.write(`${text.replace(/\r?\n/g, '\r\n')}\r\n`);
  }

  private showPrompt() {
    this.out.write(this.promptText() + this.buffer);
  }

  /** Replaces the line being typed. */
  private setBuffer(text: string) {
    this.buffer = text;
    this.out.write(`\r\x1b[K${this.promptText()}${text}`);
    if (this.mode === 'idle') this.store.setCommand(text);
  }

  private context(gen: number): TerminalContext {
    return {
      ...this.services,
      print: (line = '') => this.println(line, gen),
      printError: (line) => this.println(`${RED}${line}${RESET}`, gen),
      clear: () => {
        if (gen === this.generation) this.out.clear();
      },
      signal: this.abort.signal,
      lookup: <T>(key: string, load: () => Promise<T>) => {
        let hit = this.cache.get(key) as Promise<T> | undefined;
        if (!hit) {
          hit = load();
          this.cache.set(key, hit);
          hit.catch(() => this.cache.delete(key));
        }
        return hit;
      },
      commands,
    };
  }

  /** Opening: runs init, then the prompt with whatever was being typed. */
  async start(): Promise<void> {
    await this.execute('init', { record: false });
    this.buffer = this.store.command;
    if (this.buffer) this.out.write(this.buffer);
  }

  /** Runs a command line as if typed (used for init). */
  async execute(line: string, options: { record?: boolean } = {}): Promise<void> {
    if (options.record !== false) {
      this.store.addHistory({ command: line, canceled: false, skip: false, suffix: '$ ' });
    }
    const parsed = parseLine(line);
    const command = findCommand(parsed.name);
    if (!command) {
      this.println(`${RED}${t('terminal.commandNotFound')}${RESET}`);
      this.showPrompt();
      return;
    }
    this.cache = new Map();
    this.abort = new AbortController();
    const gen = this.generation;
    const ctx = this.context(gen);
    this.mode = 'running';
    this.store.setExecuting(true);
    try {
      const stop = await command.precheck?.(ctx);
      if (gen !== this.generation) return;
      if (stop) {
        ctx.print(stop);
        return this.finish(gen);
      }
      const dialogue = new InputDialogue(command, knownValues(command, parsed), ctx);
      const prompt = await dialogue.start();
      if (gen !== this.generation) return;
      for (const e of dialogue.errors) ctx.printError(e);
      if (dialogue.failed) return this.finish(gen);
      if (prompt) return this.ask(dialogue, prompt);
      await this.run(command, dialogue, ctx, gen);
    } catch (error) {
      ctx.printError(messageOf(error, t('terminal.somethingWrong')));
      this.finish(gen);
    }
  }

  private ask(dialogue: InputDialogue, prompt: Prompt) {
    this.dialogue = dialogue;
    this.mode = 'input';
    this.store.setExecuting(false);
    if (prompt.choices.length && prompt.choices.length <= 12) {
      // The allowed values on their own line: the prompt itself stays short enough for one line.
      this.println(`  ${prompt.choices.map((c) => c.label).join(' | ')}`);
    }
    this.buffer = '';
    this.showPrompt();
    this.replayTypeAhead();
  }

  private async run(command: Command, dialogue: InputDialogue, ctx: TerminalContext, gen: number) {
    this.mode = 'running';
    this.dialogue = null;
    this.store.setExecuting(true);
    await command.run(dialogue.values, ctx);
    this.finish(gen);
  }

  private finish(gen: number) {
    if (gen !== this.generation) return;
    this.mode = 'idle';
    this.dialogue = null;
    this.store.setExecuting(false);
    this.buffer = '';
    this.store.setCommand('');
    this.showPrompt();
    this.replayTypeAhead();
  }

  /** Feeds what was typed while a command ran, until one of those lines starts a command again. */
  private replayTypeAhead() {
    const pending = this.typeAhead;
    this.typeAhead = [];
    void (async () => {
      for (const [i, data] of pending.entries()) {
        if (this.mode === 'running') {
          this.typeAhead.unshift(...pending.slice(i));
          return;
        }
        await this.onData(data);
      }
    })();
  }

  /** Keyboard input as xterm reports it (typed text, pasted text or an escape sequence). */
  async onData(data: string): Promise<void> {
    if (data === '\x03') return this.interrupt();
    if (this.mode === 'running') {
      // Type-ahead: what is typed while a command runs is played back once it ends.
      this.typeAhead.push(data);
      return;
    }
    switch (data) {
      case '\r':
        return this.enter();
      case '\x7f':
      case '\b':
        if (this.buffer) {
          this.buffer = this.buffer.slice(0, -1);
          this.out.write('\b \b');
          if (this.mode === 'idle') this.store.setCommand(this.buffer);
        }
        return;
      case '\t':
        return this.complete();
      case '\x1b[A':
      case '\x1b[B': {
        if (this.mode !== 'idle') return;
        const s = this.store;
        const next = historyStep(s.history, s.historyIndex, data === '\x1b[A' ? -1 : 1);
        s.setHistoryIndex(next.index);
        this.setBuffer(next.line);
        return;
      }
      default: {
        // Printable text only (a paste may bring several characters; a newline in it is Enter).
        if (data.startsWith('\x1b')) return;
        const [first, ...rest] = data.split(/\r\n|\r|\n/);
        // Control characters are not text.
        const text = [...(first ?? '')].filter((c) => c >= ' ' && c !== '\x7f').join('');
        if (text) {
          this.buffer += text;
          this.out.write(text);
          if (this.mode === 'idle') this.store.setCommand(this.buffer);
        }
        if (rest.length) await this.enter();
      }
    }
  }

  private async enter() {
    const line = this.buffer;
    this.out.write('\r\n');
    this.buffer = '';
    if (this.mode === 'idle') {
      this.store.setCommand('');
      if (!line.trim()) return this.showPrompt();
      return this.execute(line.trim());
    }
    const dialogue = this.dialogue;
    if (!dialogue) return;
    this.store.addHistory({
      command: line,
      canceled: false,
      skip: true,
      suffix: dialogue.prompt?.text ?? '',
    });
    const gen = this.generation;
    const ctx = this.context(gen);
    const asked = dialogue.prompt?.input;
    // Busy until the answer is checked (its choices may load): keys typed meanwhile wait.
    this.mode = 'running';
    try {
      const result = await dialogue.answer(line);
      if (gen !== this.generation) return;
      if (result.error) ctx.printError(result.error);
      if (result.done) return await this.run(dialogue.command, dialogue, ctx, gen);
      if (result.prompt) {
        if (result.prompt.input !== asked || result.error) {
          return this.ask(dialogue, result.prompt);
        }
        this.mode = 'input';
        this.showPrompt();
        this.replayTypeAhead();
      }
    } catch (error) {
      ctx.printError(messageOf(error, t('terminal.somethingWrong')));
      this.finish(gen);
    }
  }

  /** Ctrl+C: ends whatever runs or asks, marks it canceled and shows a new prompt. */
  interrupt(): void {
    const busy = this.mode !== 'idle';
    this.typeAhead = [];
    this.generation += 1;
    this.abort.abort();
    this.out.write(`${t('terminal.canceled')}\r\n`);
    if (busy) this.store.cancelLast();
    this.mode = 'idle';
    this.dialogue = null;
    this.buffer = '';
    this.store.setExecuting(false);
    this.store.setCommand('');
    this.store.setHistoryIndex(this.store.history.length);
    this.showPrompt();
  }

  /** Tab: completes a command name, or a value of the input being asked (or of a command's first). */
  private async complete() {
    let candidates: string[];
    let prefix: string;
    let head = '';
    if (this.mode === 'input') {
      prefix = this.buffer;
      candidates = completeFrom(prefix, this.dialogue?.prompt?.choices.map((c) => c.label) ?? []);
    } else if (!/\s/.test(this.buffer)) {
      prefix = this.buffer;
      candidates = completeFrom(
        prefix,
        commands.map((c) => c.name),
      ).map((n) => `${n} `);
    } else {
      const space = this.buffer.indexOf(' ');
      head = this.buffer.slice(0, space + 1);
      prefix = this.buffer.slice(space + 1).trimStart();
      const command = findCommand(head.trim().toLowerCase());
      const input = command?.inputs.find((i) => i.choices || i.suggest);
      if (!command || !input) return;
      const gen = this.generation;
      try {
        const ctx = this.context(gen);
        const words = input.suggest
          ? input.suggest(ctx)
          : (await input.choices!({}, ctx)).map((c) => c.label);
        candidates = completeFrom(prefix, words);
      } catch {
        return;
      }
      if (gen !== this.generation) return;
    }
    if (!candidates.length) return;
    if (candidates.length === 1) return this.setBuffer(head + candidates[0]!);
    const common = commonPrefix(candidates);
    if (common.length > prefix.length) return this.setBuffer(head + common);
    // Nothing more to fill in: list the candidates, then the line again.
    this.out.write('\r\n');
    this.println(candidates.map((c) => c.trim()).join('  '));
    this.showPrompt();
  }

  dispose(): void {
    this.generation += 1;
    this.abort.abort();
  }
}
