import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';

const schema = z.object({ version: z.string().max(5), alias: z.string().min(3, 'Use three letters.') });
const issuesOf = (value: unknown) => {
  const parsed = schema.safeParse(value);
  if (parsed.success) throw new Error('expected issues');
  return parsed.error.issues;
};

/** zod-text as a page at `pathname` loads it (the page's language comes from its URL). */
async function onPage(pathname: string) {
  vi.stubGlobal('window', { location: { pathname } });
  vi.resetModules();
  return import('./zod-text');
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.resetModules();
});

describe('issueText', () => {
  it("says zod's own message in the German page's language, and a schema's own as it is", async () => {
    const { issueText } = await onPage('/de/organizations');
    const [version, alias] = issuesOf({ version: 'toolong', alias: 'a' });
    expect(issueText(version!)).toBe('Zu groß: erwartet, dass string <=5 Zeichen hat');
    // Not a catalogue message: no translation to look up, shown as the schema wrote it.
    expect(issueText(alias!)).toBe('Use three letters.');
  });

  it('leaves every message as it is on an English page', async () => {
    const { issueText } = await onPage('/organizations');
    const [version] = issuesOf({ version: 'toolong', alias: 'abc' });
    expect(issueText(version!)).toBe('Too big: expected string to have <=5 characters');
  });
});
