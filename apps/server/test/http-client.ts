/**
 * A small browser-like HTTP client for integration tests: keeps cookies per name (enough for one
 * site), follows no redirects on its own so tests can assert each hop, and can submit forms.
 */
export class TestClient {
  readonly baseUrl: string;
  readonly cookies = new Map<string, string>();
  csrfToken: string | undefined;
  /** Sent with every request (e.g. X-Forwarded-For, to be another client behind a proxy). */
  readonly headers: Record<string, string>;

  constructor(baseUrl: string, headers: Record<string, string> = {}) {
    this.baseUrl = baseUrl;
    this.headers = headers;
  }

  private absolute(url: string): string {
    return url.startsWith('http') ? url : `${this.baseUrl}${url}`;
  }

  cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  sessionCookie(): [string, string] | undefined {
    return [...this.cookies].find(([k]) => k.startsWith('SESS'));
  }

  async request(url: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    for (const [k, v] of Object.entries(this.headers)) if (!headers.has(k)) headers.set(k, v);
    if (this.cookies.size) headers.set('cookie', this.cookieHeader());
    const res = await fetch(this.absolute(url), { ...init, headers, redirect: 'manual' });
    for (const line of res.headers.getSetCookie()) {
      const [pair, ...attrs] = line.split(';');
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq).trim();
      const value = pair!.slice(eq + 1).trim();
      const expired =
        attrs.some((a) => /^\s*expires=thu, 01 jan 1970/i.test(a)) ||
        attrs.some((a) => /^\s*max-age=0/i.test(a));
      if (expired || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return res;
  }

  get(url: string, headers: Record<string, string> = {}): Promise<Response> {
    return this.request(url, { headers });
  }

  /** Sends JSON with the CSRF token (fetched first when unknown). */
  async send(
    method: string,
    url: string,
    body?: unknown,
    contentType = 'application/vnd.api+json',
  ): Promise<Response> {
    this.csrfToken ??= await (await this.get('/session/token')).text();
    return this.request(url, {
      method,
      headers: { 'content-type': contentType, 'x-csrf-token': this.csrfToken },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  }

  postForm(url: string, fields: Record<string, string>): Promise<Response> {
    return this.request(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields).toString(),
    });
  }

  /** Follows redirects from `url` while they stay on this site; returns the last response and URL. */
  async follow(url: string, max = 10): Promise<{ res: Response; url: string }> {
    let current = this.absolute(url);
    for (let i = 0; i < max; i++) {
      const res = await this.get(current);
      const location = res.headers.get('location');
      if (res.status < 300 || res.status >= 400 || !location) return { res, url: current };
      const next = new URL(location, current).toString();
      if (!next.startsWith(this.baseUrl) || new URL(next).pathname === '/oauth2/callback')
        return { res, url: next };
      current = next;
    }
    throw new Error('too many redirects');
  }
}

export interface LoginResult {
  status: number;
  body: Record<string, unknown>;
}

/**
 * Walks the whole sign-in as a browser would: login parameters, the provider's sign-in page, the
 * form post, the redirect back with a code, and the portal's code exchange.
 */
export async function signIn(
  client: TestClient,
  email: string,
  password: string,
  options: { returnTo?: string } = {},
): Promise<LoginResult & { pageStatus: number; pageHtml: string }> {
  const query = options.returnTo ? `?returnTo=${encodeURIComponent(options.returnTo)}` : '';
  const info = (await (await client.get(`/openid-connect/authorization-info/generic${query}`)).json()) as {
    baseUrl: string;
    parameters: Record<string, string>;
  };
  const authUrl = `${info.baseUrl}?${new URLSearchParams(info.parameters)}`;
  const { url: landed } = await client.follow(authUrl);
  let callback = landed;
  let pageStatus = 200;
  // Without a live provider session the browser lands on the sign-in form; with one it comes
  // straight back to the portal.
  if (new URL(landed).pathname !== '/oauth2/callback') {
    const posted = await client.postForm(`${new URL(landed).pathname}/login`, { email, password });
    pageStatus = posted.status;
    if (posted.status !== 303 && posted.status !== 302) {
      return { status: posted.status, body: {}, pageStatus, pageHtml: await posted.text() };
    }
    callback = (await client.follow(posted.headers.get('location')!)).url;
  }
  const params = new URL(callback).searchParams;
  const exchange = await client.get(`/openid-connect/generic?${params}`);
  const body = (await exchange.json()) as Record<string, unknown>;
  if (typeof body.csrfToken === 'string') client.csrfToken = body.csrfToken;
  return { status: exchange.status, body, pageStatus, pageHtml: '' };
}
