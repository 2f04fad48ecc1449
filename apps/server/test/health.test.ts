import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, testDbKind, type TestApp } from './test-app.ts';

describe('health endpoints', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('answers liveness', async () => {
    const res = await fetch(`${t.baseUrl}/healthz`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok' });
  });

  it('answers readiness with the database in use', async () => {
    const res = await fetch(`${t.baseUrl}/readyz`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ready', database: testDbKind() });
  });

  it('echoes a valid Request-Id and generates one otherwise', async () => {
    const echoed = await fetch(`${t.baseUrl}/healthz`, { headers: { 'Request-Id': 'abc-123' } });
    expect(echoed.headers.get('request-id')).toBe('abc-123');
    const generated = await fetch(`${t.baseUrl}/healthz`, { headers: { 'Request-Id': 'bad id!' } });
    expect(generated.headers.get('request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('sends security headers', async () => {
    const res = await fetch(`${t.baseUrl}/healthz`);
    expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('finishes in-flight requests on shutdown and then refuses new connections', async () => {
    let arrived!: () => void;
    const requestArrived = new Promise<void>((resolve) => (arrived = resolve));
    const own = await startTestApp({}, (app) => {
      app.get('/slow-test-route', async () => {
        arrived();
        await new Promise((r) => setTimeout(r, 500));
        return { done: true };
      });
    });
    const inFlight = fetch(`${own.baseUrl}/slow-test-route`);
    // Close once the request is being handled (a busy machine may take long to deliver it).
    await requestArrived;
    const closing = own.close();
    const res = await inFlight;
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ done: true });
    await closing;
    await expect(fetch(`${own.baseUrl}/healthz`)).rejects.toThrow();
  });

  it('answers unknown API paths with a JSON:API 404', async () => {
    const res = await fetch(`${t.baseUrl}/jsonapi/nothing-here`);
    expect(res.status).toBe(404);
    const body = (await res.json()) as { errors: { status: string }[] };
    expect(body.errors[0]?.status).toBe('404');
  });
});
