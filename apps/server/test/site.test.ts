import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { en } from '@portico/contracts/messages';
import { siteContentRepo } from '../src/modules/site/site-content.ts';
import { TestClient } from './http-client.ts';
import { startTestApp, type TestApp } from './test-app.ts';

describe('site content and newsletter', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('serves the imported block layout', async () => {
    const res = await fetch(`${t.baseUrl}/block-layout?_format=json`);
    expect(res.status).toBe(200);
    const layout = (await res.json()) as { footer: { title: string; links: { url: string }[] }[] };
    const legal = layout.footer.find((f) => f.title === 'Legal');
    expect(legal?.links.map((l) => l.url)).toContain('/privacy');
  });

  it('sends the bottom banners sanitized: the footer renders them without a sanitizer', async () => {
    const layout = (await (await fetch(`${t.baseUrl}/block-layout?_format=json`)).json()) as Record<
      string,
      unknown
    >;
    await siteContentRepo(t.app.db).put('block-layout', {
      ...layout,
      bottomBanners: [
        {
          title: 'Unsafe',
          description: '<p onclick="x()">Hi<script>alert(1)</script><a href="javascript:x()">l</a></p>',
        },
      ],
    });
    const res = await fetch(`${t.baseUrl}/block-layout?_format=json`);
    const { bottomBanners } = (await res.json()) as { bottomBanners: { description: string }[] };
    expect(bottomBanners[0]!.description).toBe('<p>Hi<a>l</a></p>');
  });

  it('serves the cookie popup texts with the spec wording', async () => {
    const res = await fetch(`${t.baseUrl}/phpsdk/cookies-consent?_format=json`);
    expect(res.status).toBe(200);
    const consent = (await res.json()) as {
      labelCheckBox: string;
      expiryDays: number;
      popup: { accept: string };
    };
    expect(consent.labelCheckBox).toBe(en.cookies.analyticsLabel);
    expect(consent.expiryDays).toBe(365);
    expect(consent.popup.accept).toBe('OK');
  });

  it('stores a newsletter sign-up once, and rejects a bad address naming the field', async () => {
    const c = new TestClient(t.baseUrl);
    const bad = await c.send('POST', '/api/newsletter', { email: 'not-an-address' }, 'application/json');
    expect(bad.status).toBe(400);
    const body = (await bad.json()) as { errors: { title: string; source?: { pointer?: string } }[] };
    expect(body.errors[0]?.title).toBe(en.newsletter.invalidEmail);
    expect(body.errors[0]?.source?.pointer).toBe('/email');

    const missing = await c.send('POST', '/api/newsletter', {}, 'application/json');
    expect(((await missing.json()) as { errors: { title: string }[] }).errors[0]?.title).toBe('Required');

    for (const email of ['news@example.com', 'NEWS@example.com']) {
      const ok = await c.send('POST', '/api/newsletter', { email }, 'application/json');
      expect(ok.status).toBe(201);
    }
    const rows = await t.app.db.selectFrom('newsletter_subscriptions').select('email').execute();
    expect(rows).toHaveLength(1);
  });

  it('refuses a sign-up without the CSRF token', async () => {
    const res = await fetch(`${t.baseUrl}/api/newsletter`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'x@example.com' }),
    });
    expect(res.status).toBe(403);
  });
});

describe('newsletter forwarded to NEWSLETTER_URL', () => {
  let t: TestApp;
  let service: http.Server;
  const received: string[] = [];
  beforeAll(async () => {
    service = http.createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        received.push(body);
        res.writeHead(200).end('ok');
      });
    });
    await new Promise<void>((resolve) => service.listen(0, '127.0.0.1', resolve));
    const { port } = service.address() as AddressInfo;
    t = await startTestApp({ NEWSLETTER_URL: `http://127.0.0.1:${port}/subscribe` });
  });
  afterAll(async () => {
    await t.close();
    service.close();
  });

  it('posts the address to the mailing service instead of storing it', async () => {
    const c = new TestClient(t.baseUrl);
    const res = await c.send('POST', '/api/newsletter', { email: 'fwd@example.com' }, 'application/json');
    expect(res.status).toBe(201);
    expect(received).toEqual(['email=fwd%40example.com']);
    const rows = await t.app.db.selectFrom('newsletter_subscriptions').select('email').execute();
    expect(rows).toHaveLength(0);
  });
});
