// The terminal's words are a feature area of the catalogue, loaded with the pages (lib/i18n.ts).
import '../../lib/feature-messages';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { en } from '@portico/contracts/messages';
import { commands, findCommand } from './commands';
import {
  commonPrefix,
  completeFrom,
  knownValues,
  parseLine,
  type Command,
  type TerminalContext,
} from './registry';
import { checkListEnd, checkListValue, checkSingle, InputDialogue } from './session';

const M = en.terminal;

function fakeContext(): TerminalContext {
  const cache = new Map<string, Promise<unknown>>();
  return {
    print: () => undefined,
    printError: () => undefined,
    clear: () => undefined,
    minify: () => undefined,
    navigate: () => undefined,
    play: () => Promise.resolve(),
    changed: () => undefined,
    signal: new AbortController().signal,
    lookup: <T>(key: string, load: () => Promise<T>) => {
      if (!cache.has(key)) cache.set(key, load());
      return cache.get(key) as Promise<T>;
    },
    commands,
  };
}

describe('the command registry', () => {
  it('has every command of spec B 2.17, each once', () => {
    expect(commands.map((c) => c.name)).toEqual([
      'ls',
      'go',
      'create-app',
      'subscribe',
      'lorem',
      'guid',
      'init',
      'mini',
      'clear',
      'snake',
      'help',
    ]);
    for (const c of commands) {
      expect(c.description.length).toBeGreaterThan(0);
      expect(c.usage.startsWith(c.name)).toBe(true);
    }
    expect(findCommand('nope')).toBeUndefined();
  });

  it('asks create-app inputs in the spec order', () => {
    expect(findCommand('create-app')!.inputs.map((i) => i.name)).toEqual([
      'title',
      'organization',
      'description',
      'allowedGrantTypes',
      'oAuthRedirectUri',
      'postLogoutRedirectUri',
      'confirm',
    ]);
  });
});

describe('parseLine', () => {
  it('splits words, honours quotes and escapes, and reads --name=value options', () => {
    expect(parseLine('  LS  ')).toEqual({ name: 'ls', args: [], options: {} });
    expect(parseLine('go "My App" x')).toEqual({ name: 'go', args: ['My App', 'x'], options: {} });
    expect(parseLine("go My\\ App 'a b'")).toEqual({ name: 'go', args: ['My App', 'a b'], options: {} });
    expect(parseLine('create-app --title=Hello --allowedGrantTypes=a,b rest')).toEqual({
      name: 'create-app',
      args: ['rest'],
      options: { title: 'Hello', allowedGrantTypes: 'a,b' },
    });
    expect(parseLine('')).toEqual({ name: '', args: [], options: {} });
  });
});

describe('knownValues', () => {
  it('gives positional arguments to the inputs in order', () => {
    const lorem = findCommand('lorem')!;
    expect(knownValues(lorem, parseLine('lorem 2 3'))).toEqual({ paragraphs: '2', sentences: '3' });
    expect(knownValues(lorem, parseLine('lorem'))).toEqual({});
  });
  it('lets a single input take every word (go My App)', () => {
    expect(knownValues(findCommand('go')!, parseLine('go My App'))).toEqual({ title: 'My App' });
  });
  it('takes options by input name, lists split on commas', () => {
    const values = knownValues(
      findCommand('create-app')!,
      parseLine('create-app --title=T --allowedGrantTypes=client_credentials,authorization_code'),
    );
    expect(values).toEqual({ title: 'T', allowedGrantTypes: ['client_credentials', 'authorization_code'] });
  });
});

describe('completion', () => {
  it('completes command names and shared prefixes', () => {
    expect(
      completeFrom(
        'c',
        commands.map((c) => c.name),
      ),
    ).toEqual(['create-app', 'clear']);
    expect(commonPrefix(['create-app', 'clear'])).toBe('c');
    expect(commonPrefix(['subscribe'])).toBe('subscribe');
    expect(completeFrom('SN', ['snake'])).toEqual(['snake']);
  });
});

describe('input validation (spec B 5 Terminal input)', () => {
  const text = { name: 'x', label: 'X', kind: 'text' as const };
  it('requires a single value unless a default is suggested', () => {
    expect(checkSingle(text, '  ')).toEqual({ error: M.valueRequired });
    expect(checkSingle(text, '', { defaultValue: 'Acme' })).toEqual({ value: 'Acme' });
    expect(checkSingle(text, ' hi ')).toEqual({ value: 'hi' });
  });
  it('accepts only Yes or No for yes/no', () => {
    const yesno = { name: 'ok', label: 'OK', kind: 'yesno' as const };
    expect(checkSingle(yesno, 'yes')).toEqual({ value: 'Yes' });
    expect(checkSingle(yesno, 'No')).toEqual({ value: 'No' });
    expect(checkSingle(yesno, 'maybe')).toEqual({ error: M.expectedYesNo });
  });
  it('rejects values outside the allowed list', () => {
    const choice = { name: 'c', label: 'C', kind: 'choice' as const };
    const choices = [
      { label: 'Alpha', value: 'a' },
      { label: 'Beta', value: 'b' },
    ];
    expect(checkSingle(choice, 'beta', { choices })).toEqual({ value: 'b' });
    expect(checkSingle(choice, 'Gamma', { choices })).toEqual({
      error: 'The value Gamma is invalid. Allowed values: Alpha, Beta',
    });
  });
  it('says Title is not valid for an unknown application in go', () => {
    const input = findCommand('go')!.inputs[0]!;
    expect(checkSingle(input, 'Nope', { choices: [{ label: 'Shop', value: 'u1' }] })).toEqual({
      error: M.titleNotValid,
    });
  });
  it('rejects duplicates and needs one value in a required list', () => {
    const multi = { name: 'm', label: 'M', kind: 'multi' as const };
    expect(checkListValue(multi, 'a', ['a'])).toEqual({ error: 'The value a already exists.' });
    expect(checkListValue(multi, 'b', ['a'])).toEqual({ value: 'b' });
    expect(checkListEnd(multi, [], {})).toBe(M.atLeastOne);
    expect(checkListEnd({ ...multi, optional: true }, [], {})).toBeNull();
    const grants = findCommand('create-app')!.inputs[3]!;
    const choices = [{ label: 'client_credentials', value: 'client_credentials' }];
    expect(checkListValue(grants, 'password', [], { choices })).toEqual({
      error: 'The value password is invalid. Allowed values: client_credentials',
    });
  });
  it('checks lorem numbers with the spec messages', () => {
    const [paragraphs, sentences] = findCommand('lorem')!.inputs;
    expect(checkSingle(paragraphs!, 'two')).toEqual({ error: M.paragraphsNaN });
    expect(checkSingle(sentences!, '3x')).toEqual({ error: M.sentencesNaN });
    expect(checkSingle(sentences!, '3')).toEqual({ value: '3' });
  });
  it('applies the application form rules to create-app', () => {
    const [title, , description, , redirect] = findCommand('create-app')!.inputs;
    expect(checkSingle(title!, 'x'.repeat(256))).toEqual({ error: en.applications.titleTooLong });
    expect(checkSingle(description!, 'a')).toEqual({ error: en.applications.required });
    expect(checkListValue(redirect!, 'not a url', [])).toEqual({ error: en.applications.invalidUrl });
    expect(
      redirect!.optional instanceof Function &&
        redirect!.optional({ allowedGrantTypes: ['client_credentials'] }),
    ).toBe(true);
    expect(
      redirect!.optional instanceof Function &&
        redirect!.optional({ allowedGrantTypes: ['authorization_code'] }),
    ).toBe(false);
  });
});

describe('InputDialogue', () => {
  const command: Command = {
    name: 'demo',
    description: 'Demo',
    usage: 'demo',
    inputs: [
      { name: 'title', label: 'Title', kind: 'text' },
      { name: 'color', label: 'Color', kind: 'choice', choices: () => [{ label: 'Red', value: 'r' }] },
      { name: 'tags', label: 'Tags', kind: 'multi' },
      { name: 'note', label: 'Note', kind: 'text', optional: true },
    ],
    run: () => undefined,
  };

  it('asks in order, skipping known and optional inputs, until none is left', async () => {
    const d = new InputDialogue(command, { title: 'Given' }, fakeContext());
    const first = await d.start();
    expect(first?.input.name).toBe('color');
    expect(first?.text).toContain('Color');
    expect(await d.answer('Blue')).toMatchObject({
      error: 'The value Blue is invalid. Allowed values: Red',
      done: false,
    });
    expect((await d.answer('red')).prompt?.input.name).toBe('tags');
    expect(await d.answer('')).toMatchObject({ error: M.atLeastOne, done: false });
    await d.answer('one');
    expect(await d.answer('one')).toMatchObject({ error: 'The value one already exists.' });
    expect(await d.answer('')).toMatchObject({ done: true, prompt: null });
    expect(d.values).toEqual({ title: 'Given', color: 'r', tags: ['one'] });
  });

  it('reports a bad command-line value and asks that input again', async () => {
    const d = new InputDialogue(command, { color: 'Green' }, fakeContext());
    const first = await d.start();
    expect(first?.input.name).toBe('title');
    await d.answer('T');
    expect(d.errors).toEqual(['The value Green is invalid. Allowed values: Red']);
    expect(d.prompt?.input.name).toBe('color');
  });

  it('ends the command when an optional input got a bad value', async () => {
    const d = new InputDialogue(findCommand('lorem')!, { paragraphs: 'x' }, fakeContext());
    expect(await d.start()).toBeNull();
    expect(d.failed).toBe(true);
    expect(d.errors).toEqual([M.paragraphsNaN]);
  });
});

describe('the Yes/No questions of the commands that change the portal (spec B 5)', () => {
  /** A context that records what is printed, with the lists the inputs need already known. */
  function recordingContext(lists: Record<string, unknown>) {
    const printed: string[] = [];
    const ctx: TerminalContext = {
      ...fakeContext(),
      print: (line = '') => printed.push(line),
      printError: (line) => printed.push(`error: ${line}`),
      lookup: <T>(key: string) => Promise.resolve(lists[key] as T),
    };
    return { ctx, printed };
  }
  const lists = {
    organizations: { data: [{ id: 'org-1', attributes: { label: 'Acme' } }] },
    apps: [{ uuid: 'app-1', title: 'Shop', organization: { uuid: 'org-1', title: 'Acme' } }],
    products: { data: [{ id: 'prod-1', attributes: { title: 'Payments API' } }] },
  };
  // No call may leave on a No: any request fails the test.
  const fetchSpy = vi.fn(() => Promise.reject(new Error('no request expected')));
  afterEach(() => {
    fetchSpy.mockClear();
    vi.unstubAllGlobals();
  });

  it('create-app asks last whether to create the application it names, Yes or No only', async () => {
    const { ctx } = recordingContext(lists);
    const d = new InputDialogue(
      findCommand('create-app')!,
      { title: 'Shop', description: 'A shop', allowedGrantTypes: ['client_credentials'] },
      ctx,
    );
    expect((await d.start())?.input.name).toBe('organization');
    const question = (await d.answer('')).prompt;
    expect(question?.input.kind).toBe('yesno');
    expect(question?.text).toBe('Create the application Shop in Acme? (Yes/No): ');
    expect(await d.answer('')).toMatchObject({ error: M.valueRequired, done: false });
    expect(await d.answer('maybe')).toMatchObject({ error: M.expectedYesNo, done: false });
    expect(await d.answer('y')).toMatchObject({ error: M.expectedYesNo, done: false });
    expect(await d.answer('yes')).toMatchObject({ done: true });
    expect(d.values.confirm).toBe('Yes');
  });

  it('subscribe asks whether to subscribe the application to the product, by their titles', async () => {
    const { ctx } = recordingContext(lists);
    const d = new InputDialogue(findCommand('subscribe')!, { application: 'Shop' }, ctx);
    expect((await d.start())?.input.name).toBe('product');
    const question = (await d.answer('payments api')).prompt;
    expect(question?.text).toBe('Subscribe Shop to Payments API? (Yes/No): ');
    expect(await d.answer('Perhaps')).toMatchObject({ error: M.expectedYesNo });
    expect(await d.answer('NO')).toMatchObject({ done: true });
    expect(d.values).toEqual({ application: 'app-1', product: 'prod-1', confirm: 'No' });
  });

  it('a bad answer on the command line is said and asked again', async () => {
    const { ctx } = recordingContext(lists);
    const d = new InputDialogue(
      findCommand('subscribe')!,
      { application: 'Shop', product: 'Payments API', confirm: 'sure' },
      ctx,
    );
    expect((await d.start())?.input.name).toBe('confirm');
    expect(d.errors).toEqual([M.expectedYesNo]);
  });

  it('on No nothing is sent and a line says nothing was done', async () => {
    vi.stubGlobal('fetch', fetchSpy);
    const { ctx, printed } = recordingContext(lists);
    await findCommand('create-app')!.run(
      {
        title: 'Shop',
        organization: 'org-1',
        description: 'A shop',
        allowedGrantTypes: ['client_credentials'],
        confirm: 'No',
      },
      ctx,
    );
    await findCommand('subscribe')!.run({ application: 'app-1', product: 'prod-1', confirm: 'No' }, ctx);
    expect(printed).toEqual([
      'Application Shop was not created.',
      'Shop was not subscribed to Payments API.',
    ]);
    expect(fetchSpy).not.toHaveBeenCalled();
  });

  it('on Yes the command does its work (its request leaves)', async () => {
    vi.stubGlobal('fetch', fetchSpy);
    const { ctx, printed } = recordingContext(lists);
    await findCommand('subscribe')!.run({ application: 'app-1', product: 'prod-1', confirm: 'Yes' }, ctx);
    expect(fetchSpy).toHaveBeenCalled();
    expect(printed).toEqual([`error: ${M.somethingWrong}`]);
  });
});
