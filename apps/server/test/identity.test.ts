import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { en } from '@portico/contracts/messages';
import { startTestApp, type TestApp } from './test-app.ts';
import { TestClient, signIn } from './http-client.ts';
import { createUser, signedInUser } from './org-fixtures.ts';

const DEV = { email: 'dev@portico.local', password: 'DevPortal#2026' };

describe('identity: built-in provider, sessions and CSRF', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ LOGIN_RATE_LIMIT: '4' });
  });
  afterAll(async () => {
    await t.close();
  });

  it('signs the demo developer in and brings them back to returnTo', async () => {
    const c = new TestClient(t.baseUrl);
    const result = await signIn(c, DEV.email, DEV.password, { returnTo: '/cookie-settings?x=1' });
    expect(result.status).toBe(200);
    expect(result.body).toMatchObject({
      name: 'Dana Developer',
      mail: DEV.email,
      roles: ['user'],
      returnTo: '/cookie-settings?x=1',
    });
    const [name] = c.sessionCookie() ?? [];
    expect(name).toMatch(/^SESS[0-9a-f]{32}$/);
    expect(await (await c.get('/user/login_status?_format=json')).text()).toBe('1');
    const me = (await (await c.get('/session/user?_format=json')).json()) as { uid: number; mail: string };
    expect(me.mail).toBe(DEV.email);
    const users = (await (
      await c.get(`/jsonapi/user/user?filter[drupal_internal__uid]=${me.uid}`)
    ).json()) as {
      data: { attributes: { mail: string } }[];
    };
    expect(users.data[0]?.attributes.mail).toBe(DEV.email);
  });

  it('advertises only the code flow it serves in the identity provider discovery', async () => {
    const meta = (await (await fetch(`${t.baseUrl}/idp/.well-known/openid-configuration`)).json()) as {
      response_types_supported: string[];
    };
    expect(meta.response_types_supported).toEqual(['code']);
  });

  it("lets the sign-in page's form end at the relying party's redirect URI, named in form-action", async () => {
    const c = new TestClient(t.baseUrl);
    const info = (await (await c.get('/openid-connect/authorization-info/generic')).json()) as {
      baseUrl: string;
      parameters: Record<string, string>;
    };
    const page = await c.follow(`${info.baseUrl}?${new URLSearchParams(info.parameters)}`);
    expect(new URL(page.url).pathname).toMatch(/^\/idp\/interaction\//);
    const policy = page.res.headers.get('content-security-policy') ?? '';
    const formAction = policy.split(';').find((d) => d.trim().startsWith('form-action '));
    expect(formAction?.trim()).toBe(`form-action 'self' ${new URL(info.parameters.redirect_uri!).origin}`);
  });

  it('sets the session cookie httpOnly and SameSite=Lax', async () => {
    const c = new TestClient(t.baseUrl);
    const info = (await (await c.get('/openid-connect/authorization-info/generic')).json()) as {
      parameters: Record<string, string>;
    };
    expect(info.parameters).toMatchObject({
      response_type: 'code',
      code_challenge_method: 'S256',
      scope: 'openid email profile',
    });
    // A full sign-in, then look at the raw Set-Cookie of the exchange.
    const raw = new TestClient(t.baseUrl);
    await signIn(raw, DEV.email, DEV.password);
    const again = new TestClient(t.baseUrl);
    const infoRes = await again.get('/openid-connect/authorization-info/generic');
    const params = (await infoRes.json()) as { baseUrl: string; parameters: Record<string, string> };
    const { url } = await again.follow(`${params.baseUrl}?${new URLSearchParams(params.parameters)}`);
    const posted = await again.postForm(`${new URL(url).pathname}/login`, DEV);
    const { url: callback } = await again.follow(posted.headers.get('location')!);
    const exchange = await fetch(`${t.baseUrl}/openid-connect/generic?${new URL(callback).searchParams}`, {
      headers: { cookie: `portico_login=${again.cookies.get('portico_login')}` },
    });
    const setCookie = exchange.headers.getSetCookie().find((l) => l.startsWith('SESS'));
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Lax/i);
    expect(setCookie).not.toMatch(/Secure/i); // plain http here; Secure over https
  });

  it('refuses a wrong password with the same message as an unknown account', async () => {
    const wrong = await signIn(new TestClient(t.baseUrl), DEV.email, 'not-the-password');
    expect(wrong.pageStatus).toBe(401);
    expect(wrong.pageHtml).toContain(en.identity.invalidCredentials);
    const unknown = await signIn(new TestClient(t.baseUrl), 'nobody@example.com', 'whatever-123');
    expect(unknown.pageStatus).toBe(401);
    expect(unknown.pageHtml).toContain(en.identity.invalidCredentials);
  });

  it('limits sign-in attempts per address', async () => {
    const email = 'ratelimited@example.com';
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++)
      statuses.push((await signIn(new TestClient(t.baseUrl), email, 'wrong-password')).pageStatus);
    expect(statuses.slice(0, 4)).toEqual([401, 401, 401, 401]);
    expect(statuses[4]).toBe(429);
  });

  it('rotates the session at login: the previous session id stops working', async () => {
    const c = new TestClient(t.baseUrl);
    await signIn(c, DEV.email, DEV.password);
    const first = c.sessionCookie()!;
    await signIn(c, DEV.email, DEV.password);
    const second = c.sessionCookie()!;
    expect(second[1]).not.toBe(first[1]);
    const replay = await fetch(`${t.baseUrl}/user/login_status?_format=json`, {
      headers: { cookie: `${first[0]}=${first[1]}` },
    });
    expect(await replay.text()).toBe('0');
  });

  it('ends the session on the server at logout', async () => {
    const c = new TestClient(t.baseUrl);
    await signIn(c, DEV.email, DEV.password);
    const cookie = c.sessionCookie()!;
    // Logout stays a GET (spec B), so another site could link to it: refused unless the request
    // comes from this site or carries the session's CSRF token.
    for (const headers of [
      { 'sec-fetch-site': 'cross-site' } as Record<string, string>,
      { 'sec-fetch-site': 'same-site' },
      { origin: 'https://evil.example' },
      {},
    ]) {
      const refused = await c.get('/user/logout?_format=json', headers);
      expect(refused.status, JSON.stringify(headers)).toBe(403);
      expect(((await refused.json()) as { errors: { title: string }[] }).errors[0]?.title).toBe(
        en.identity.logoutCrossSite,
      );
    }
    expect(await (await c.get('/user/login_status?_format=json')).text()).toBe('1');
    const out = await c.get('/user/logout?_format=json', { 'x-csrf-token': c.csrfToken! });
    expect(out.status).toBe(204);
    expect(c.sessionCookie()).toBeUndefined();
    const replay = await fetch(`${t.baseUrl}/user/login_status?_format=json`, {
      headers: { cookie: `${cookie[0]}=${cookie[1]}` },
    });
    expect(await replay.text()).toBe('0');
    // The provider's own session is gone too: the next login shows the sign-in form again.
    const info = (await (await c.get('/openid-connect/authorization-info/generic')).json()) as {
      baseUrl: string;
      parameters: Record<string, string>;
    };
    const { url, res } = await c.follow(`${info.baseUrl}?${new URLSearchParams(info.parameters)}`);
    expect(new URL(url).pathname).toMatch(/^\/idp\/interaction\//);
    expect(await res.text()).toContain(en.identity.passwordLabel);
  });

  it('lets a same-origin logout through without the token (the browser says where it comes from)', async () => {
    const sameOrigin: Record<string, string>[] = [{ 'sec-fetch-site': 'same-origin' }, { origin: t.baseUrl }];
    for (const headers of sameOrigin) {
      const c = new TestClient(t.baseUrl);
      await signIn(c, DEV.email, DEV.password);
      expect((await c.get('/user/logout?_format=json', headers)).status).toBe(204);
      expect(await (await c.get('/user/login_status?_format=json')).text()).toBe('0');
    }
  });

  it('requires X-CSRF-Token on state-changing calls', async () => {
    const c = new TestClient(t.baseUrl);
    const login = await signIn(c, DEV.email, DEV.password);
    const uuid = String(login.body.uuid);
    const doc = {
      data: {
        type: 'user--user',
        id: uuid,
        relationships: {
          field_completed_stories: {
            data: [{ type: 'node--quick_start_story', id: '3f0c6a52-8d1e-4c7b-9a37-2f4b1e6d9c01' }],
          },
        },
      },
    };
    const missing = await c.request(`/jsonapi/user/user/${uuid}`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/vnd.api+json' },
      body: JSON.stringify(doc),
    });
    expect(missing.status).toBe(403);
    expect(((await missing.json()) as { errors: { title: string }[] }).errors[0]?.title).toBe(
      en.api.csrfMissing,
    );
    const wrong = await c.request(`/jsonapi/user/user/${uuid}`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/vnd.api+json', 'x-csrf-token': 'forged' },
      body: JSON.stringify(doc),
    });
    expect(wrong.status).toBe(403);
    // An anonymous token does not pass for a signed-in session.
    const anonToken = await (await fetch(`${t.baseUrl}/session/token`)).text();
    const anon = await c.request(`/jsonapi/user/user/${uuid}`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/vnd.api+json', 'x-csrf-token': anonToken },
      body: JSON.stringify(doc),
    });
    expect(anon.status).toBe(403);
    const ok = await c.send('PATCH', `/jsonapi/user/user/${uuid}`, doc);
    expect(ok.status).toBe(200);
    const me = (await (await c.get('/session/user?_format=json')).json()) as { completedStories: string[] };
    expect(me.completedStories).toEqual(['3f0c6a52-8d1e-4c7b-9a37-2f4b1e6d9c01']);
  });

  it('signs up a new account and signs it in', async () => {
    const c = new TestClient(t.baseUrl);
    const info = (await (await c.get('/openid-connect/authorization-info/generic?screen=signup')).json()) as {
      baseUrl: string;
      parameters: Record<string, string>;
    };
    const { url, res } = await c.follow(`${info.baseUrl}?${new URLSearchParams(info.parameters)}`);
    expect(await res.text()).toContain(en.identity.createAccountButton);
    const path = `${new URL(url).pathname}/signup`;
    const short = await c.postForm(path, {
      firstName: 'Sam',
      lastName: 'New',
      email: 'sam@example.com',
      password: 'short',
    });
    expect(short.status).toBe(400);
    expect(await short.text()).toContain(en.identity.passwordTooShort);
    // Over-long values get the catalogue's words, not the validator's.
    for (const [values, message] of [
      [{ firstName: 'S'.repeat(101), password: 'long-enough-1' }, en.identity.nameTooLong],
      [{ email: `${'s'.repeat(250)}@example.com`, password: 'long-enough-1' }, en.identity.emailTooLong],
      [{ password: 'p'.repeat(201) }, en.identity.passwordTooLong],
    ] as const) {
      const res = await c.postForm(path, {
        firstName: 'Sam',
        lastName: 'New',
        email: 'sam@example.com',
        ...values,
      });
      expect(res.status).toBe(400);
      expect(await res.text()).toContain(message);
    }
    const taken = await c.postForm(path, {
      firstName: 'Sam',
      lastName: 'New',
      email: 'DEV@portico.local',
      password: 'long-enough-1',
    });
    expect(taken.status).toBe(409);
    expect(await taken.text()).toContain(en.identity.emailTaken);
    const created = await c.postForm(path, {
      firstName: 'Sam',
      lastName: 'New',
      email: 'sam@example.com',
      password: 'long-enough-1',
    });
    expect(created.status).toBe(303);
    const { url: callback } = await c.follow(created.headers.get('location')!);
    const exchange = await c.get(`/openid-connect/generic?${new URL(callback).searchParams}`);
    expect(exchange.status).toBe(200);
    expect(await exchange.json()).toMatchObject({ name: 'Sam New', mail: 'sam@example.com' });
  });

  it('binds the login state to the browser that started it (no login CSRF)', async () => {
    // Someone starts a login for their own account and stops at the redirect back with a code...
    const attacker = new TestClient(t.baseUrl);
    const info = (await (await attacker.get('/openid-connect/authorization-info/generic')).json()) as {
      baseUrl: string;
      parameters: Record<string, string>;
    };
    const { url } = await attacker.follow(`${info.baseUrl}?${new URLSearchParams(info.parameters)}`);
    const posted = await attacker.postForm(`${new URL(url).pathname}/login`, DEV);
    const { url: callback } = await attacker.follow(posted.headers.get('location')!);
    const query = new URL(callback).searchParams;
    // ...and hands the callback to a victim's browser (with or without a login cookie of its own).
    const victim = new TestClient(t.baseUrl);
    const refusedBare = await victim.get(`/openid-connect/generic?${query}`);
    expect(refusedBare.status).toBe(400);
    await victim.get('/openid-connect/authorization-info/generic');
    expect(victim.cookies.get('portico_login')).toBeDefined();
    const refused = await victim.get(`/openid-connect/generic?${query}`);
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { errors: { title: string }[] }).errors[0]?.title).toBe(
      en.identity.loginStateUnknown,
    );
    expect(victim.sessionCookie()).toBeUndefined();
    // The browser that started it still completes its login.
    expect((await attacker.get(`/openid-connect/generic?${query}`)).status).toBe(200);
  });

  it('refuses a replayed or unknown login state', async () => {
    const res = await fetch(`${t.baseUrl}/openid-connect/generic?code=abc&state=unknown`);
    expect(res.status).toBe(400);
    const body = (await res.json()) as { errors: { title: string }[] };
    expect(body.errors[0]?.title).toBe(en.identity.loginStateUnknown);
  });

  it('resets a forgotten password through the e-mailed link', async () => {
    const c = new TestClient(t.baseUrl);
    await c.postForm('/idp/reset', { email: 'sam@example.com' });
    const mail = await t.app.db
      .selectFrom('outbox')
      .selectAll()
      .where('to_address', '=', 'sam@example.com')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    const link = /https?:\/\/\S+\/idp\/reset\/\S+/.exec(mail.text_body)?.[0];
    expect(link).toBeDefined();
    const path = new URL(link!).pathname;
    const changed = await c.postForm(path, { password: 'a-brand-new-secret' });
    expect(await changed.text()).toContain(en.identity.passwordChanged);
    const reused = await c.postForm(path, { password: 'another-one-123' });
    expect(reused.status).toBe(400);
    expect((await signIn(new TestClient(t.baseUrl), 'sam@example.com', 'a-brand-new-secret')).status).toBe(
      200,
    );
  });
});

describe('identity: GET /jsonapi/user/user on the shared JSON:API layer', () => {
  let t: TestApp;
  let me: TestClient;
  let mine: { uid: number; uuid: string };
  let theirs: { uid: number; uuid: string };

  type Users = {
    data: {
      id: string;
      attributes: { drupal_internal__uid: number; name: string; mail?: string };
      relationships: Record<string, unknown>;
    }[];
    meta: { count: number };
    links: { self: { href: string } };
  };
  const users = async (client: TestClient, query: string) => {
    const res = await client.get(`/jsonapi/user/user?${query}`);
    expect(res.status, query).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/vnd.api+json');
    return (await res.json()) as Users;
  };
  const rejects = async (query: string, parameter: string) => {
    const res = await me.get(`/jsonapi/user/user${query ? `?${query}` : ''}`);
    expect(res.status, query).toBe(400);
    const body = (await res.json()) as {
      errors: { code: string; title: string; source?: { parameter?: string } }[];
    };
    expect(body.errors[0], query).toMatchObject({ code: 'invalid_query', source: { parameter } });
    return body.errors[0]!.title;
  };

  beforeAll(async () => {
    t = await startTestApp({ LOGIN_RATE_LIMIT: '1000' });
    me = await signedInUser(t, 'uma.user@example.com');
    const other = await createUser(t, 'otto.other@example.com');
    theirs = { uid: other.id, uuid: other.uuid };
    const session = (await (await me.get('/session/user?_format=json')).json()) as { uid: number };
    const row = await t.app.db
      .selectFrom('users')
      .select(['id', 'uuid'])
      .where('id', '=', session.uid)
      .executeTakeFirstOrThrow();
    mine = { uid: row.id, uuid: row.uuid };
  });
  afterAll(async () => {
    await t?.close();
  });

  it('reads the signed-in user: that user only, with their own e-mail', async () => {
    const self = await users(me, `filter[drupal_internal__uid]=${mine.uid}`);
    expect(self.data).toHaveLength(1);
    expect(self.data[0]).toMatchObject({
      id: mine.uuid,
      attributes: { name: 'uma user', mail: 'uma.user@example.com' },
    });
    expect(self.data[0]!.relationships).toHaveProperty('field_completed_stories');
    expect(self.meta.count).toBe(1);
    expect(self.links.self.href).toContain('/jsonapi/user/user?');
    expect((await users(me, `filter[id]=${mine.uuid}`)).data.map((u) => u.id)).toEqual([mine.uuid]);
    expect((await users(me, 'filter[name][operator]=CONTAINS&filter[name][value]=UMA')).data).toHaveLength(1);
    expect((await users(me, 'filter[drupal_internal__uid]=999999')).data).toEqual([]);
  });

  it('is not a directory: nobody else is found, and anonymous callers get nothing', async () => {
    // Other users, by uid, uuid, name or a list: nothing (it listed uid, uuid and name to anyone).
    for (const query of [
      `filter[drupal_internal__uid]=${theirs.uid}`,
      `filter[id]=${theirs.uuid}`,
      'filter[name][operator]=CONTAINS&filter[name][value]=OTTO',
      'filter[name][operator]=CONTAINS&filter[name][value]=o',
    ]) {
      const found = await users(me, query);
      expect(found.data, query).toEqual([]);
      expect(found.meta.count, query).toBe(0);
    }
    const both = await users(
      me,
      `filter[u][condition][path]=drupal_internal__uid&filter[u][condition][operator]=IN` +
        `&filter[u][condition][value][]=${theirs.uid}&filter[u][condition][value][]=${mine.uid}`,
    );
    expect(both.data.map((u) => u.id)).toEqual([mine.uuid]);
    const anonymous = new TestClient(t.baseUrl);
    for (const query of [
      `filter[drupal_internal__uid]=${mine.uid}`,
      'filter[name][operator]=CONTAINS&filter[name][value]=u',
    ]) {
      const found = await users(anonymous, query);
      expect(found.data, query).toEqual([]);
      expect(JSON.stringify(found)).not.toContain('@example.com');
    }
  });

  it("PATCH answers another user's uuid exactly as a uuid nobody has: 404, nothing changed", async () => {
    const doc = (uuid: string) => ({
      data: { type: 'user--user', id: uuid, attributes: { field_first_name: 'Mallory' } },
    });
    const random = '6d0c3c52-1b7e-4f43-9d52-0f3f1c7e2a11';
    const theirsRes = await me.send('PATCH', `/jsonapi/user/user/${theirs.uuid}`, doc(theirs.uuid));
    const randomRes = await me.send('PATCH', `/jsonapi/user/user/${random}`, doc(random));
    expect([theirsRes.status, randomRes.status]).toEqual([404, 404]);
    expect(await theirsRes.text()).toBe(await randomRes.text());
    const row = await t.app.db
      .selectFrom('users')
      .select('first_name')
      .where('uuid', '=', theirs.uuid)
      .executeTakeFirstOrThrow();
    expect(row.first_name).not.toBe('Mallory');
  });

  it('PATCH refuses an attribute or relationship it does not write with a 400 naming it', async () => {
    for (const [doc, pointer] of [
      [{ attributes: { field_first_name: 'Uma', mail: 'x@example.com' } }, '/data/attributes/mail'],
      [{ attributes: { roles: ['administrator'] } }, '/data/attributes/roles'],
      [{ relationships: { user_picture: { data: null } } }, '/data/relationships/user_picture'],
    ] as const) {
      const res = await me.send('PATCH', `/jsonapi/user/user/${mine.uuid}`, {
        data: { type: 'user--user', id: mine.uuid, ...doc },
      });
      const body = (await res.json()) as { errors: { title: string; source?: { pointer?: string } }[] };
      expect([res.status, body.errors[0]?.source?.pointer]).toEqual([400, pointer]);
      expect(body.errors[0]?.title).toBe(
        `${pointer.split('/').pop()} is not ${pointer.includes('attributes') ? 'an attribute' : 'a relationship'} of user--user that can be written.`,
      );
    }
    const row = await t.app.db
      .selectFrom('users')
      .select(['first_name', 'email'])
      .where('uuid', '=', mine.uuid)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ email: 'uma.user@example.com' });
    expect(row.first_name).not.toBe('Uma');
  });

  it('answers other filters and bad values with a 400 naming the parameter', async () => {
    expect(await rejects('', 'filter')).toBe('Filter the users by uid: filter[drupal_internal__uid]=<uid>.');
    await rejects('filter[mail]=uma.user@example.com', 'filter[mail]');
    await rejects('filter[uid]=1', 'filter[uid]');
    await rejects(
      'filter[x][condition][path]=mail&filter[x][condition][value]=a',
      'filter[x][condition][path]',
    );
    await rejects('filter[drupal_internal__uid]=abc', 'filter[drupal_internal__uid]');
    await rejects('filter[id]=42', 'filter[id]');
    await rejects(
      'filter[drupal_internal__uid][operator]=CONTAINS&filter[drupal_internal__uid][value]=1',
      'filter[drupal_internal__uid][operator]',
    );
    await rejects(`filter[drupal_internal__uid]=${mine.uid}&sort=mail`, 'sort');
    await rejects(`filter[drupal_internal__uid]=${mine.uid}&include=user_picture`, 'include');
    await rejects(`filter[drupal_internal__uid]=${mine.uid}&foo=1`, 'foo');
  });
});

describe('identity: rate limits that one shared address can live with', () => {
  let t: TestApp;
  beforeAll(async () => {
    // 2 failures per address and 10 per IP in 15 minutes; 3 accounts per IP and hour.
    t = await startTestApp({ LOGIN_RATE_LIMIT: '2', SIGNUP_RATE_LIMIT: '3', IMPORT_CONTENT: 'false' });
  });
  afterAll(async () => {
    await t?.close();
  });

  async function signUp(email: string): Promise<number> {
    const c = new TestClient(t.baseUrl);
    const info = (await (await c.get('/openid-connect/authorization-info/generic?screen=signup')).json()) as {
      baseUrl: string;
      parameters: Record<string, string>;
    };
    const { url } = await c.follow(`${info.baseUrl}?${new URLSearchParams(info.parameters)}`);
    const res = await c.postForm(`${new URL(url).pathname}/signup`, {
      firstName: 'Rate',
      lastName: 'Tester',
      email,
      password: 'long-enough-1',
    });
    return res.status;
  }

  it('counts only failed sign-ins against an IP address, and limits sign-ups per hour', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push(await signUp(`rate-${i}@example.com`));
    expect(statuses).toEqual([303, 303, 303, 429]);

    // Twelve successful sign-ins from one address: more than the IP allows failures.
    for (let i = 0; i < 12; i++) {
      expect((await signIn(new TestClient(t.baseUrl), 'rate-0@example.com', 'long-enough-1')).status).toBe(
        200,
      );
    }
    // Failures for different accounts: the IP's tenth is the last one let through.
    const failures: number[] = [];
    for (let i = 0; i < 11; i++)
      failures.push(
        (await signIn(new TestClient(t.baseUrl), `nobody-${i}@example.com`, 'wrong-pass')).pageStatus,
      );
    expect(failures.slice(0, 10)).toEqual(Array(10).fill(401));
    expect(failures[10]).toBe(429);
    // Now even the right password waits: the IP is over its limit.
    expect((await signIn(new TestClient(t.baseUrl), 'rate-1@example.com', 'long-enough-1')).pageStatus).toBe(
      429,
    );
  });
});
