import { randomUUID } from 'node:crypto';
import { en } from '@portico/contracts/messages';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClient } from './http-client.ts';
import { signedInUser, type JsonApiErrorBody } from './org-fixtures.ts';
import { uploadTicketFile } from './support-fixtures.ts';
import { startTestApp, type TestApp } from './test-app.ts';

const M = en.support;
let t: TestApp;
let developer: TestClient;
let outsider: TestClient;
let admin: TestClient;

interface Ticket {
  nid: number;
  uuid: string;
  title: string;
  status: string;
  severity: string;
  environment: string;
  description: string;
  details: string;
  messages: { body: string; author: { name: string; staff: boolean } }[];
  viewer?: { staff: boolean };
}

beforeAll(async () => {
  t = await startTestApp({ IMPORT_CONTENT: 'false', SUPPORT_EMAIL: 'help@bank.example' });
  developer = await signedInUser(t, 'ticket.developer@example.com');
  outsider = await signedInUser(t, 'ticket.outsider@example.com');
  admin = await signedInUser(t, 'ticket.staff@example.com', { admin: true });
});
afterAll(async () => {
  await t?.close();
});

function ticketBody(overrides: Record<string, unknown> = {}) {
  return {
    title: 'Payments sandbox returns 502',
    contact_info: '+44 20 7946 0000',
    description: 'Every POST /payments in the sandbox answers 502 since this morning.',
    environment: 'Test',
    severity: 'High',
    details: 'Request-Id 7f3c. Started at 08:10 UTC.',
    message: 'Request-Id 7f3c. Started at 08:10 UTC.',
    ...overrides,
  };
}

async function create(client: TestClient, overrides: Record<string, unknown> = {}): Promise<number> {
  const res = await client.send(
    'POST',
    '/api/support_ticket/create',
    ticketBody(overrides),
    'application/json',
  );
  expect(res.status).toBe(201);
  const body = (await res.json()) as { nid: [{ value: number }] };
  return body.nid[0].value;
}

async function lastMailTo(address: string) {
  return t.app.db
    .selectFrom('outbox')
    .selectAll()
    .where('to_address', '=', address)
    .orderBy('id', 'desc')
    .executeTakeFirst();
}

async function ticketCount(): Promise<number> {
  const row = await t.app.db
    .withTables<{ support_tickets: { id: number } }>()
    .selectFrom('support_tickets')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

describe('support tickets', () => {
  it('anonymous callers cannot list, read or raise tickets', async () => {
    const anonymous = new TestClient(t.baseUrl);
    expect((await anonymous.get('/api/support_ticket?_format=json')).status).toBe(401);
    expect(
      (await anonymous.send('POST', '/api/support_ticket/create', ticketBody(), 'application/json')).status,
    ).toBe(401);
  });

  it('a developer raises a ticket, sees it in the list and alone; staff get an e-mail', async () => {
    const nid = await create(developer);
    const mail = await lastMailTo('help@bank.example');
    expect(mail?.subject).toBe(`[Ticket #${nid}] New ticket: Payments sandbox returns 502`);
    expect(mail?.text_body).toContain(`/support/ticket/${nid}`);

    const list = (await (await developer.get('/api/support_ticket?_format=json')).json()) as Ticket[];
    expect(list.map((x) => [x.nid, x.title, x.status, x.severity, x.environment])).toContainEqual([
      nid,
      'Payments sandbox returns 502',
      'OPEN',
      'High',
      'Test',
    ]);
    const one = (await (await developer.get(`/api/support_ticket/${nid}?_format=json`)).json()) as Ticket;
    expect(one.title).toBe('Payments sandbox returns 502');
    expect(one.viewer).toEqual({ staff: false });
    // Someone else's list does not show it.
    const theirs = (await (await outsider.get('/api/support_ticket?_format=json')).json()) as Ticket[];
    expect(theirs.map((x) => x.nid)).not.toContain(nid);
  });

  it('an outsider gets 404 reading, changing or replying to someone else’s ticket', async () => {
    const nid = await create(developer);
    const read = await outsider.get(`/api/support_ticket/${nid}?_format=json`);
    expect(read.status).toBe(404);
    expect(((await read.json()) as JsonApiErrorBody).errors[0]!.title).toBe(M.ticketNotFound);
    const patch = await outsider.send(
      'PATCH',
      `/api/support_ticket/${nid}`,
      { field_state: 'CLOSED' },
      'application/json',
    );
    expect(patch.status).toBe(404);
    const reply = await outsider.send(
      'POST',
      `/api/support_ticket/${nid}/reply`,
      { message: 'Me too' },
      'application/json',
    );
    expect(reply.status).toBe(404);
    // Unknown and malformed ids answer the same.
    expect((await outsider.get('/api/support_ticket/999999')).status).toBe(404);
    expect((await outsider.get('/api/support_ticket/abc')).status).toBe(404);
    const one = (await (await developer.get(`/api/support_ticket/${nid}`)).json()) as Ticket;
    expect(one.status).toBe('OPEN');
    expect(one.messages).toEqual([]);
  });

  it('answers someone else’s ticket, its replies and its files exactly like a random one', async () => {
    const { uuid: fileUuid } = await uploadTicketFile(developer, 'trace.txt');
    const nid = await create(developer, { attachments: [fileUuid] });
    const ticket = (await (await developer.get(`/api/support_ticket/${nid}`)).json()) as Ticket;
    const randomId = randomUUID();
    const answer = async (res: Response) => ({
      status: res.status,
      type: res.headers.get('content-type'),
      cache: res.headers.get('cache-control'),
      body: await res.text(),
    });
    const calls: [string, (id: string) => Promise<Response>][] = [
      ['GET ticket', (id) => outsider.get(`/api/support_ticket/${id}?_format=json`)],
      [
        'PATCH ticket',
        (id) =>
          outsider.send('PATCH', `/api/support_ticket/${id}`, { field_state: 'CLOSED' }, 'application/json'),
      ],
      // An invalid body too: who may see the ticket is decided first.
      [
        'PATCH ticket, bad body',
        (id) =>
          outsider.send('PATCH', `/api/support_ticket/${id}`, { field_state: 'GONE' }, 'application/json'),
      ],
      [
        'POST reply',
        (id) =>
          outsider.send('POST', `/api/support_ticket/${id}/reply`, { message: 'Me too' }, 'application/json'),
      ],
      [
        'POST reply, bad body',
        (id) => outsider.send('POST', `/api/support_ticket/${id}/reply`, { message: '' }, 'application/json'),
      ],
      ['GET its file', (id) => outsider.get(`/api/support_ticket/${id}/files/${fileUuid}`)],
      ['GET a random file', (id) => outsider.get(`/api/support_ticket/${id}/files/${randomUUID()}`)],
    ];
    for (const [name, call] of calls) {
      const random = await answer(await call(randomId));
      expect(random.status, name).toBe(404);
      for (const theirs of [String(nid), ticket.uuid]) {
        expect(await answer(await call(theirs)), `${name} ${theirs}`).toEqual(random);
      }
      // A numeric id nobody has answers the same too.
      expect(await answer(await call('999999')), `${name} 999999`).toEqual(random);
    }
    // Nothing changed on the ticket.
    const after = (await (await developer.get(`/api/support_ticket/${nid}`)).json()) as Ticket;
    expect(after.status).toBe('OPEN');
    expect(after.messages).toEqual([]);
  });

  it('a developer cannot see the queue or the contact messages; staff can, with filters', async () => {
    expect((await developer.get('/admin-api/support/tickets')).status).toBe(403);
    expect((await developer.get('/admin-api/support/contact-messages')).status).toBe(403);
    const nid = await create(developer, {
      title: 'Production outage',
      severity: 'Critical',
      environment: 'Production',
    });
    const all = (await (await admin.get('/admin-api/support/tickets')).json()) as {
      data: Ticket[];
      meta: { count: number };
    };
    expect(all.data[0]!.nid).toBe(nid);
    const filtered = (await (
      await admin.get('/admin-api/support/tickets?severity=Critical&environment=Production&status=OPEN')
    ).json()) as { data: Ticket[] };
    expect(filtered.data.map((x) => x.nid)).toEqual([nid]);
    const none = (await (
      await admin.get('/admin-api/support/tickets?environment=Test&severity=Critical')
    ).json()) as {
      data: Ticket[];
    };
    expect(none.data).toEqual([]);
    const bad = await admin.get('/admin-api/support/tickets?severity=Urgent');
    expect(bad.status).toBe(400);
    expect((await admin.get('/admin-api/support/contact-messages')).status).toBe(200);
  });

  it('staff reply and close; the developer is e-mailed and can re-open and reply; staff get the reply', async () => {
    const nid = await create(developer, { title: 'Webhook signature mismatch' });
    const staffReply = await admin.send(
      'POST',
      `/api/support_ticket/${nid}/reply`,
      { message: 'Please send us the raw body.' },
      'application/json',
    );
    expect(staffReply.status).toBe(201);
    let mail = await lastMailTo('ticket.developer@example.com');
    expect(mail?.subject).toBe(`[Ticket #${nid}] Support replied: Webhook signature mismatch`);
    expect(mail?.text_body).toContain('Please send us the raw body.');

    const closed = await admin.send(
      'PATCH',
      `/api/support_ticket/${nid}`,
      { field_state: 'CLOSED' },
      'application/json',
    );
    expect(closed.status).toBe(200);
    mail = await lastMailTo('ticket.developer@example.com');
    expect(mail?.subject).toBe(`[Ticket #${nid}] Status changed to CLOSED: Webhook signature mismatch`);

    const refused = await developer.send(
      'POST',
      `/api/support_ticket/${nid}/reply`,
      { message: 'Hi' },
      'application/json',
    );
    expect(refused.status).toBe(409);
    const reopened = await developer.send(
      'PATCH',
      `/api/support_ticket/${nid}`,
      { field_state: 'OPEN' },
      'application/json',
    );
    expect(reopened.status).toBe(200);
    const answer = await developer.send(
      'POST',
      `/api/support_ticket/${nid}/reply`,
      { message: 'Here it is <script>alert(1)</script><b>raw</b>' },
      'application/json',
    );
    expect(answer.status).toBe(201);
    const ticket = (await answer.json()) as Ticket;
    expect(ticket.status).toBe('OPEN');
    expect(ticket.messages.map((m) => m.author.staff)).toEqual([true, false]);
    expect(ticket.messages[1]!.body).not.toContain('<script');
    expect(ticket.messages[1]!.body).toContain('<b>raw</b>');
    mail = await lastMailTo('help@bank.example');
    expect(mail?.subject).toBe(`[Ticket #${nid}] New reply: Webhook signature mismatch`);
  });

  it('refuses bad input with the field named and stores nothing', async () => {
    const before = await ticketCount();
    for (const [field, value, message] of [
      ['title', '', M.required],
      ['contact_info', '  ', M.required],
      ['environment', 'Staging', M.invalidEnvironment],
      ['severity', 'Urgent', M.invalidSeverity],
      ['details', 'x'.repeat(20_001), 'Must be at most 20000 characters.'],
    ] as const) {
      const res = await developer.send(
        'POST',
        '/api/support_ticket/create',
        ticketBody({ [field]: value }),
        'application/json',
      );
      expect(res.status, field).toBe(400);
      const error = ((await res.json()) as JsonApiErrorBody).errors[0]!;
      expect(error.title, field).toBe(message);
      expect(error.source?.pointer, field).toBe(`/${field}`);
    }
    const nid = await create(developer);
    const badState = await developer.send(
      'PATCH',
      `/api/support_ticket/${nid}`,
      { field_state: 'DONE' },
      'application/json',
    );
    expect(badState.status).toBe(400);
    const empty = await developer.send(
      'POST',
      `/api/support_ticket/${nid}/reply`,
      { message: ' ' },
      'application/json',
    );
    expect(empty.status).toBe(400);
    expect(await ticketCount()).toBe(before + 1);
    const huge = await developer.request('/api/support_ticket/create', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-csrf-token': developer.csrfToken! },
      body: JSON.stringify(ticketBody({ details: 'x'.repeat(1_100_000) })),
    });
    expect(huge.status).toBe(413);
    expect(await ticketCount()).toBe(before + 1);
  });

  it('limits tickets per user', async () => {
    const busy = await signedInUser(t, 'ticket.busy@example.com');
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) {
      const res = await busy.send('POST', '/api/support_ticket/create', ticketBody(), 'application/json');
      await res.arrayBuffer();
      statuses.push(res.status);
    }
    expect(statuses.slice(0, 10).every((s) => s === 201)).toBe(true);
    expect(statuses[10]).toBe(429);
  });

  it('attaches uploaded documents with the organization documents’ rules; others cannot fetch them', async () => {
    const upload = (client: TestClient, name: string, data: Buffer | string) =>
      client.request('/api/support_ticket/file', {
        method: 'POST',
        headers: {
          'content-type': 'application/octet-stream',
          'content-disposition': `file; filename="${name}"`,
          'x-csrf-token': client.csrfToken!,
        },
        body: typeof data === 'string' ? data : new Uint8Array(data),
      });
    const anonymous = new TestClient(t.baseUrl);
    expect((await upload(anonymous, 'log.txt', 'x')).status).toBeGreaterThanOrEqual(401);
    const bad = await upload(developer, 'tool.exe', 'MZ');
    expect(bad.status).toBe(422);
    expect(((await bad.json()) as JsonApiErrorBody).errors[0]!.title).toContain(
      en.organizations.extensionNotAllowed,
    );
    const fake = await upload(developer, 'report.pdf', 'not a pdf');
    expect(fake.status).toBe(422);

    const ok = await upload(developer, 'gateway-log.txt', 'POST /payments -> 502\n');
    expect(ok.status).toBe(201);
    const { uuid } = (await ok.json()) as { uuid: string };
    // Someone else cannot attach it to their ticket, and nothing is stored then.
    const before = await ticketCount();
    const stolen = await outsider.send(
      'POST',
      '/api/support_ticket/create',
      ticketBody({ attachments: [uuid] }),
      'application/json',
    );
    expect(stolen.status).toBe(400);
    expect(((await stolen.json()) as JsonApiErrorBody).errors[0]!.title).toBe(M.attachmentNotFound);
    expect(await ticketCount()).toBe(before);

    const nid = await create(developer, { attachments: [uuid] });
    const ticket = (await (await developer.get(`/api/support_ticket/${nid}`)).json()) as Ticket & {
      attachments: { uuid: string; file_name: string; url: string }[];
    };
    expect(ticket.attachments.map((a) => a.file_name)).toEqual(['gateway-log.txt']);
    const file = await developer.get(ticket.attachments[0]!.url);
    expect(file.status).toBe(200);
    expect(await file.text()).toBe('POST /payments -> 502\n');
    expect((await admin.get(ticket.attachments[0]!.url)).status).toBe(200);
    expect((await outsider.get(ticket.attachments[0]!.url)).status).toBe(404);
  });
});
