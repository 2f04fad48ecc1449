import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { zodMessageIn } from './zod-language.ts';

const schema = z.object({
  title: z.string().max(5),
  weight: z.number(),
  kind: z.enum(['a', 'b']),
  alias: z.string().min(3, 'Use at least three letters.'),
});
const issues = () => {
  const parsed = schema.safeParse(
    { title: 'too long', weight: 'x', kind: 'c', alias: 'a' },
    { reportInput: true },
  );
  if (parsed.success) throw new Error('expected issues');
  return Object.fromEntries(parsed.error.issues.map((i) => [String(i.path[0]), i]));
};

describe('zodMessageIn', () => {
  it("says zod's own messages with zod's locale of the language", () => {
    const { title, weight, kind } = issues();
    expect(zodMessageIn(title!, 'de')).toBe('Zu groß: erwartet, dass string <=5 Zeichen hat');
    expect(zodMessageIn(weight!, 'de')).toBe('Ungültige Eingabe: erwartet Zahl, erhalten string');
    expect(zodMessageIn(kind!, 'de')).toBe('Ungültige Option: erwartet eine von "a"|"b"');
  });

  it("leaves a schema's own message and the default language alone", () => {
    const { title, alias } = issues();
    expect(zodMessageIn(alias!, 'de')).toBeUndefined();
    expect(zodMessageIn(title!, 'en')).toBeUndefined();
  });
});
