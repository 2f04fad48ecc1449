import { format } from '@portico/contracts/format';
import { LOCALES } from '@portico/contracts/locales';
import { en } from '@portico/contracts/messages';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import deErrors from '../locales/de/errors.json' with { type: 'json' };
import enErrors from '../locales/en/errors.json' with { type: 'json' };
import { errorKeyOf, translateError, translateErrorDocument } from './error-language.ts';
import { forbidden, notFound, unauthorized } from './errors.ts';
import {
  READER_LANGCODE_MESSAGE,
  TRANSLATION_EMPTY_MESSAGE,
  TRANSLATION_LANGCODE_MESSAGE,
} from './translations.ts';
import {
  NAMESPACES,
  flatTexts,
  formatDateTime,
  formatNumber,
  messageNumber,
  texts,
  uiLocale,
} from './i18n.ts';

const catalogue = (path: string): unknown =>
  path.split('.').reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], en);

const placeholders = (text: string) => [...text.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();

/** Where an English text of a namespace comes from: the catalogue, minus the namespace's own prefix. */
const SERVER_OWN: Record<string, string> = {
  'server.unauthorized': unauthorized().message,
  'server.forbidden': forbidden().message,
  'server.notFound': notFound().message,
  'server.langcode': READER_LANGCODE_MESSAGE,
  // The web app's own label of its breadcrumb (apps/web/src/locales/en/shell.json `layout`).
  'site.breadcrumb': 'Breadcrumb',
  'server.translationLangcode': TRANSLATION_LANGCODE_MESSAGE,
  'server.translationEmpty': TRANSLATION_EMPTY_MESSAGE,
};

describe('the message files (src/locales)', () => {
  it("repeat the contracts catalogue's English byte for byte", () => {
    for (const ns of NAMESPACES) {
      for (const [key, text] of flatTexts('en', ns)) {
        expect(text, `${ns}:${key}`).toBe(SERVER_OWN[key] ?? catalogue(key));
      }
    }
  });

  it('have the same keys, and the same placeholders, in every language', () => {
    for (const ns of NAMESPACES) {
      const english = flatTexts('en', ns);
      for (const locale of LOCALES) {
        const other = flatTexts(locale, ns);
        expect([...other.keys()].sort(), `${locale}/${ns}.json`).toEqual([...english.keys()].sort());
        for (const [key, text] of english) {
          expect(placeholders(other.get(key)!), `${locale}/${ns}.json ${key}`).toEqual(placeholders(text));
        }
      }
    }
  });

  it('translate one English error text one way (the API finds a message by its English text)', () => {
    const english = flatTexts('en', 'errors');
    for (const locale of LOCALES) {
      const other = flatTexts(locale, 'errors');
      const seen = new Map<string, string>();
      for (const [key, text] of english) {
        const translation = other.get(key)!;
        if (seen.has(text)) expect(translation, `${locale} ${key}`).toBe(seen.get(text));
        seen.set(text, translation);
      }
    }
  });
});

describe('texts', () => {
  it('fills placeholders without escaping, and keeps templates for the pages', () => {
    const de = texts('de', 'pages', 'identity');
    expect(de.locale).toBe('de');
    expect(de('verifyIntro', { email: '<a@b.example>' })).toBe(
      'Bestätigen Sie, dass <a@b.example> Ihre Adresse ist.',
    );
    expect(de.template('verifyIntro')).toBe('Bestätigen Sie, dass {{email}} Ihre Adresse ist.');
    expect(texts('en', 'pages', 'identity')('signInTitle')).toBe(en.identity.signInTitle);
  });
});

describe('translateError', () => {
  it('leaves English and unknown messages as they are', () => {
    expect(translateError(en.organizations.titleTooLong, 'en')).toBe(en.organizations.titleTooLong);
    expect(translateError('Something no file knows.', 'de')).toBe('Something no file knows.');
  });

  it('translates a catalogue message, filling the placeholders with the English values', () => {
    const english = format(en.forum.errors.tooLong, { field: 'title', max: 255 });
    expect(errorKeyOf(english)).toEqual({
      key: 'forum.errors.tooLong',
      values: { field: 'title', max: '255' },
    });
    expect(translateError(english, 'de')).toBe('title ist zu lang: höchstens 255 Zeichen.');
    expect(translateError(unauthorized().message, 'de')).toBe('Sie müssen angemeldet sein, um dies zu tun.');
  });

  it('rewrites the titles and details of an error document, and nothing else', () => {
    const doc = {
      jsonapi: { version: '1.0' },
      errors: [
        {
          status: '422',
          code: 'unprocessable',
          title: 'Required',
          detail: 'Required',
          source: { pointer: '/x' },
        },
      ],
    };
    const translated = JSON.parse(translateErrorDocument(JSON.stringify(doc), 'de')!) as typeof doc;
    expect(translated.errors[0]).toEqual({ ...doc.errors[0], title: 'Pflichtfeld', detail: 'Pflichtfeld' });
    expect(translateErrorDocument('{"data":[]}', 'de')).toBeUndefined();
    expect(translateErrorDocument('not json', 'de')).toBeUndefined();
  });

  it("says each failed check's message again inside a composed text: zod's own and the schema's own", () => {
    const schema = z.object({
      icon: z.string().regex(/^(https:\/\/|\/)/, enErrors.api.httpsOrPath),
      title: z.string().max(3),
    });
    const parsed = schema.safeParse({ icon: 'javascript:x', title: 'long' }, { reportInput: true });
    if (parsed.success) throw new Error('expected issues');
    const composed = parsed.error.issues.map((i) => `${String(i.path[0])}: ${i.message}`).join('; ');
    const doc = { errors: [{ status: '422', title: composed }] };
    const translated = JSON.parse(
      translateErrorDocument(JSON.stringify(doc), 'de', parsed.error.issues)!,
    ) as typeof doc;
    expect(translated.errors[0]!.title).toBe(
      `icon: ${deErrors.api.httpsOrPath}; title: Zu groß: erwartet, dass string <=3 Zeichen hat`,
    );
  });
});

describe('uiLocale (OIDC Core 3.1.2.1)', () => {
  it('takes the first of our languages, by primary subtag, in the order given', () => {
    expect(uiLocale('fr-CA de-AT en')).toBe('de');
    expect(uiLocale('en-US de')).toBe('en');
    expect(uiLocale('fr')).toBeUndefined();
    expect(uiLocale(undefined)).toBeUndefined();
    expect(uiLocale(['de'])).toBeUndefined();
  });
});

describe('formats', () => {
  it("write dates and numbers each language's way", () => {
    const date = new Date('2026-03-05T14:07:00Z');
    expect(formatDateTime('de', date)).toBe('5. März 2026 um 14:07');
    expect(formatDateTime('en', date)).toBe('5 March 2026 at 14:07');
    expect(formatNumber('de', 12345.5)).toBe('12.345,5');
    expect(formatNumber('en', 12345.5)).toBe('12,345.5');
    // In a message, English keeps the digits the catalogue's texts were always filled with.
    expect(messageNumber('en', 1200)).toBe('1200');
    expect(messageNumber('de', 1200)).toBe('1.200');
  });
});
