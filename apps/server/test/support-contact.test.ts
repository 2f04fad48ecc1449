import { en } from '@portico/contracts/messages';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClient } from './http-client.ts';
import { signedInUser, type JsonApiErrorBody } from './org-fixtures.ts';
import { contactBody, solvedCaptcha } from './support-fixtures.ts';
import { startTestApp, type TestApp } from './test-app.ts';

const M = en.support;
let t: TestApp;

beforeAll(async () => {
  t = await startTestApp({ IMPORT_CONTENT: 'false', SUPPORT_EMAIL: 'help@bank.example' });
});
afterAll(async () => {
  await t?.close();
});

async function contactCount(): Promise<number> {
  const row = await t.app.db
    .withTables<{ contact_messages: { id: number } }>()
    .selectFrom('contact_messages')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** A visitor behind its own address (X-Forwarded-For is not trusted here, so all share 127.0.0.1). */
function visitor() {
  return new TestClient(t.baseUrl);
}

describe('contact form', () => {
  it('stores a message with a solved captcha and e-mails SUPPORT_EMAIL', async () => {
    const client = visitor();
    const altcha = await solvedCaptcha(client);
    const res = await client.send(
      'POST',
      '/contact_message?_format=json',
      contactBody({ altcha, mail: 'first@example.com', subject: 'Where is the sandbox?' }),
      'application/json',
    );
    expect(res.status).toBe(201);
    const body = (await res.json()) as { uuid: [{ value: string }]; message: string };
    expect(body.message).toBe(M.sent);
    const mail = await t.app.db
      .selectFrom('outbox')
      .selectAll()
      .where('to_address', '=', 'help@bank.example')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(mail.subject).toBe('[Contact] Where is the sandbox?');
    expect(mail.text_body).toContain('first@example.com');
    expect(mail.text_body).toContain('How do I get access to the payments sandbox?');
  });

  it('refuses a message without a captcha from an anonymous visitor, and stores nothing', async () => {
    const before = await contactCount();
    const res = await visitor().send(
      'POST',
      '/contact_message?_format=json',
      contactBody(),
      'application/json',
    );
    expect(res.status).toBe(400);
    const body = (await res.json()) as JsonApiErrorBody;
    expect(body.errors[0]!.title).toBe(M.captchaRequired);
    expect(await contactCount()).toBe(before);
  });

  it('refuses a captcha payload used before (replay), and a forged one', async () => {
    const client = visitor();
    const altcha = await solvedCaptcha(client);
    const first = await client.send(
      'POST',
      '/contact_message',
      contactBody({ altcha, mail: 'replay@example.com' }),
      'application/json',
    );
    expect(first.status).toBe(201);
    const before = await contactCount();
    const again = await client.send(
      'POST',
      '/contact_message',
      contactBody({ altcha, mail: 'replay2@example.com' }),
      'application/json',
    );
    expect(again.status).toBe(400);
    expect(((await again.json()) as JsonApiErrorBody).errors[0]!.title).toBe(M.captchaUsed);

    const forgedPayload = JSON.parse(Buffer.from(await solvedCaptcha(client), 'base64').toString()) as {
      solution: { derivedKey: string };
    };
    // The derived key is the proof of work: one that was not worked out is refused.
    forgedPayload.solution.derivedKey = forgedPayload.solution.derivedKey.replace(/^./, (c) =>
      c === '0' ? '1' : '0',
    );
    const forged = await client.send(
      'POST',
      '/contact_message',
      contactBody({
        altcha: Buffer.from(JSON.stringify(forgedPayload)).toString('base64'),
        mail: 'f@example.com',
      }),
      'application/json',
    );
    expect(forged.status).toBe(400);
    expect(((await forged.json()) as JsonApiErrorBody).errors[0]!.title).toBe(M.captchaInvalid);
    const garbage = await client.send(
      'POST',
      '/contact_message',
      contactBody({ altcha: 'not-a-payload', mail: 'g@example.com' }),
      'application/json',
    );
    expect(garbage.status).toBe(400);
    expect(await contactCount()).toBe(before);
  });

  it('names the missing or bad field in a 400', async () => {
    const client = visitor();
    for (const [field, value, message] of [
      ['name', '', M.required],
      ['mail', 'not-an-address', M.invalidEmail],
      ['subject', '   ', M.required],
      ['message', 'x'.repeat(10_001), 'Must be at most 10000 characters.'],
      ['contact_form', 'other', M.unknownForm],
    ] as const) {
      const res = await client.send(
        'POST',
        '/contact_message',
        contactBody({ [field]: value }),
        'application/json',
      );
      expect(res.status, field).toBe(400);
      const error = ((await res.json()) as JsonApiErrorBody).errors[0]!;
      expect(error.title, field).toBe(message);
      expect(error.source?.pointer, field).toBe(`/${field}`);
    }
  });

  it('lets a signed-in user with a verified address write without a captcha', async () => {
    const user = await signedInUser(t, 'verified.writer@example.com');
    const res = await user.send(
      'POST',
      '/contact_message',
      contactBody({ mail: 'verified.writer@example.com' }),
      'application/json',
    );
    expect(res.status).toBe(201);
    const unverified = await signedInUser(t, 'unverified.writer@example.com', { verified: false });
    const refused = await unverified.send(
      'POST',
      '/contact_message',
      contactBody({ mail: 'u@example.com' }),
      'application/json',
    );
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as JsonApiErrorBody).errors[0]!.title).toBe(M.captchaRequired);
  });

  it('limits messages per address', async () => {
    const user = await signedInUser(t, 'limit.writer@example.com');
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const res = await user.send(
        'POST',
        '/contact_message',
        contactBody({ mail: 'busy@example.com' }),
        'application/json',
      );
      await res.arrayBuffer();
      statuses.push(res.status);
    }
    expect(statuses).toEqual([201, 201, 201, 201, 201, 429]);
    const last = await user.send(
      'POST',
      '/contact_message',
      contactBody({ mail: 'busy@example.com' }),
      'application/json',
    );
    expect(last.status).toBe(429);
    expect(last.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(((await last.json()) as JsonApiErrorBody).errors[0]!.title).toBe(M.tooManyMessages);
  });
});
