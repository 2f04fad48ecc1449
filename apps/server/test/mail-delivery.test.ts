import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, startTestApp, type TestApp } from './test-app.ts';

/** The messages a minimal SMTP server received (RFC 5321's commands, no extensions). */
function smtpServer(): { server: net.Server; messages: string[] } {
  const messages: string[] = [];
  const server = net.createServer((socket) => {
    let data: string | undefined;
    let buffered = '';
    socket.write('220 test.example ESMTP\r\n');
    socket.on('data', (chunk) => {
      buffered += chunk.toString('utf8');
      for (;;) {
        if (data !== undefined) {
          const end = buffered.indexOf('\r\n.\r\n');
          if (end < 0) return;
          messages.push(data + buffered.slice(0, end));
          buffered = buffered.slice(end + 5);
          data = undefined;
          socket.write('250 queued\r\n');
          continue;
        }
        const eol = buffered.indexOf('\r\n');
        if (eol < 0) return;
        const line = buffered.slice(0, eol);
        buffered = buffered.slice(eol + 2);
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === 'DATA') {
          data = '';
          socket.write('354 go ahead\r\n');
        } else if (verb === 'QUIT') {
          socket.end('221 bye\r\n');
          return;
        } else socket.write(`250 ${verb === 'EHLO' || verb === 'HELO' ? 'test.example' : 'OK'}\r\n`);
      }
    });
    socket.on('error', () => {});
  });
  return { server, messages };
}

describe('outgoing e-mail through SMTP_URL', () => {
  let t: TestApp;
  const smtp = smtpServer();
  let port: number;

  beforeAll(async () => {
    port = await freePort();
    await new Promise<void>((resolve) => smtp.server.listen(port, '127.0.0.1', resolve));
    t = await startTestApp({ SMTP_URL: `smtp://127.0.0.1:${port}` });
  });
  afterAll(async () => {
    await t?.close();
    smtp.server.close();
  });

  const outboxRow = (to: string) =>
    t.app.db.selectFrom('outbox').selectAll().where('to_address', '=', to).executeTakeFirstOrThrow();

  it('sends the message to the SMTP server and records it as sent', async () => {
    await t.app.mailer.send({
      to: 'someone@example.com',
      subject: 'Delivered through SMTP',
      text: 'The body of the message.',
    });
    expect(smtp.messages).toHaveLength(1);
    expect(smtp.messages[0]).toContain('Subject: Delivered through SMTP');
    expect(smtp.messages[0]).toContain('The body of the message.');
    const row = await outboxRow('someone@example.com');
    expect(row.status).toBe('sent');
    expect(row.error).toBeNull();
  });

  it('records a message the server cannot take as failed, with the reason, and says so', async () => {
    await new Promise<void>((resolve) => smtp.server.close(() => resolve()));
    await expect(
      t.app.mailer.send({ to: 'nobody@example.com', subject: 'Not delivered', text: 'Lost.' }),
    ).rejects.toThrow('Could not send e-mail to nobody@example.com');
    const row = await outboxRow('nobody@example.com');
    expect(row.status).toBe('failed');
    expect(row.error).toMatch(/ECONNREFUSED|connect/i);
    expect(smtp.messages).toHaveLength(1);
  });
});
