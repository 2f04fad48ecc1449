import { en } from '@portico/contracts/messages';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import dePages from '../src/locales/de/pages.json' with { type: 'json' };
import deMails from '../src/locales/de/emails.json' with { type: 'json' };
import deErrors from '../src/locales/de/errors.json' with { type: 'json' };
import { TestClient } from './http-client.ts';
import { signedInUser, type JsonApiErrorBody } from './org-fixtures.ts';
import { contactBody, solvedCaptcha } from './support-fixtures.ts';
import { startTestApp, type TestApp } from './test-app.ts';

/**
 * The community areas in German (issue 30, decision 058): the confirmations the server sends
 * that the web app shows (contact form, newsletter), the support mails a developer gets, the
 * forum's unsubscribe page and its refusals, in the reader's language; English stays the
 * catalogue's word for word.
 */
const GERMAN = { 'accept-language': 'de-DE,de;q=0.9,en;q=0.5' };

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ IMPORT_CONTENT: 'false', SUPPORT_EMAIL: 'help@bank.example' });
});
afterAll(async () => {
  await t?.close();
});

async function lastMailTo(address: string) {
  return t.app.db
    .selectFrom('outbox')
    .select(['subject', 'text_body'])
    .where('to_address', '=', address)
    .orderBy('id', 'desc')
    .executeTakeFirstOrThrow();
}

describe('confirmations the web app shows', () => {
  it("the contact form's answer is German for a German request, English otherwise", async () => {
    for (const [headers, expected, language] of [
      [GERMAN, deErrors.support.sent, 'de'],
      [{}, en.support.sent, 'en'],
    ] as const) {
      const client = new TestClient(t.baseUrl, headers);
      const altcha = await solvedCaptcha(client);
      const res = await client.send(
        'POST',
        '/contact_message?_format=json',
        contactBody({ altcha }),
        'application/json',
      );
      expect(res.status).toBe(201);
      expect(res.headers.get('content-language')).toBe(language);
      expect(((await res.json()) as { message: string }).message).toBe(expected);
    }
  });

  it("the newsletter's answer is German for a German request, English otherwise", async () => {
    const german = await new TestClient(t.baseUrl, GERMAN).send(
      'POST',
      '/api/newsletter',
      { email: 'leser@example.com' },
      'application/json',
    );
    expect(german.status).toBe(201);
    expect(((await german.json()) as { message: string }).message).toBe(deErrors.newsletter.success);
    expect(deErrors.newsletter.success).not.toBe(en.newsletter.success);
    const english = await new TestClient(t.baseUrl).send(
      'POST',
      '/api/newsletter',
      { email: 'reader@example.com' },
      'application/json',
    );
    expect(((await english.json()) as { message: string }).message).toBe(en.newsletter.success);
  });
});

describe('support tickets', () => {
  it("mail the reporter in their account's language; the staff's mails stay English", async () => {
    const developer = await signedInUser(t, 'entwickler.support@example.com');
    const staff = await signedInUser(t, 'support.staff.de@example.com', { admin: true });
    await t.app.db
      .updateTable('users')
      .set({ preferred_langcode: 'de' })
      .where('email', '=', 'entwickler.support@example.com')
      .execute();
    const created = await developer.send(
      'POST',
      '/api/support_ticket/create',
      {
        title: 'Sandbox antwortet 502',
        contact_info: '+49 30 1234567',
        description: 'Jeder Aufruf antwortet 502.',
        environment: 'Test',
        severity: 'High',
        details: 'Seit heute Morgen.',
      },
      'application/json',
    );
    expect(created.status, await created.clone().text()).toBe(201);
    const nid = ((await created.json()) as { nid: [{ value: number }] }).nid[0].value;
    expect((await lastMailTo('help@bank.example')).subject).toBe(
      `[Ticket #${nid}] New ticket: Sandbox antwortet 502`,
    );

    const reply = await staff.send(
      'POST',
      `/api/support_ticket/${nid}/reply`,
      { message: 'Wir sehen es uns an.' },
      'application/json',
    );
    expect(reply.status).toBe(201);
    const replyMail = await lastMailTo('entwickler.support@example.com');
    expect(replyMail.subject).toBe(`[Ticket #${nid}] Antwort des Supports: Sandbox antwortet 502`);
    expect(replyMail.text_body).toContain(
      'Unser Support-Team hat auf Ihr Ticket „Sandbox antwortet 502“ geantwortet:',
    );
    expect(deMails.support.mailStaffReplySubject).toContain('Antwort des Supports');

    const closed = await staff.send(
      'PATCH',
      `/api/support_ticket/${nid}`,
      { field_state: 'CLOSED' },
      'application/json',
    );
    expect(closed.status).toBe(200);
    const statusMail = await lastMailTo('entwickler.support@example.com');
    expect(statusMail.subject).toBe(`[Ticket #${nid}] Status geändert zu CLOSED: Sandbox antwortet 502`);
    expect(statusMail.text_body).toContain(
      'Der Status Ihres Tickets „Sandbox antwortet 502“ ist jetzt CLOSED.',
    );

    // A German request to reply to the closed ticket is refused in German.
    developer.headers['accept-language'] = GERMAN['accept-language'];
    const late = await developer.send(
      'POST',
      `/api/support_ticket/${nid}/reply`,
      { message: 'Noch da?' },
      'application/json',
    );
    expect(late.status).toBe(409);
    expect((await late.json()) as JsonApiErrorBody).toMatchObject({
      errors: [{ title: deErrors.support.ticketClosed }],
    });
  });
});

describe('forum', () => {
  it("the unsubscribe page is in the reader's language, and English by default", async () => {
    const german = await new TestClient(t.baseUrl, GERMAN).get('/api/subscribe-list/unsubscribe?token=nope');
    expect(german.status).toBe(400);
    const html = await german.text();
    expect(html).toContain('<html lang="de">');
    expect(html).toContain(`<h1>${dePages.forum.mail.unsubscribedTitle}</h1>`);
    expect(html).toContain(dePages.forum.errors.unsubscribeInvalid);
    expect(html).toContain(`<a href="/de/forum">${dePages.forum.mail.backToPortal}</a>`);

    const english = await new TestClient(t.baseUrl).get('/api/subscribe-list/unsubscribe?token=nope');
    const englishHtml = await english.text();
    expect(englishHtml).toContain('<html lang="en">');
    expect(englishHtml).toContain(`<h1>${en.forum.mail.unsubscribedTitle}</h1>`);
    expect(englishHtml).toContain(`<a href="/forum">${en.forum.mail.backToPortal}</a>`);
  });

  it('refuses a topic in a forum that does not exist in German for a German request', async () => {
    const member = await signedInUser(t, 'forum.de@example.com');
    member.headers['accept-language'] = GERMAN['accept-language'];
    const res = await member.send(
      'POST',
      '/jsonapi/node/forum',
      {
        data: {
          type: 'node--forum',
          attributes: { title: 'Frage', body: 'Wie geht das?' },
          relationships: {
            taxonomy_forums: {
              data: { type: 'taxonomy_term--forums', id: '00000000-0000-4000-8000-000000000000' },
            },
          },
        },
      },
      'application/vnd.api+json',
    );
    expect(res.status, await res.clone().text()).toBe(404);
    expect(((await res.json()) as JsonApiErrorBody).errors[0]?.title).toBe(
      deErrors.forum.errors.forumNotFound,
    );
  });
});
