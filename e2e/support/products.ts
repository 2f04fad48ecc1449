import { expect, type Page } from '@playwright/test';

/** API fixtures of the catalog flows, with the page's session (cookies shared with the page). */

async function post<T>(page: Page, url: string, body: unknown, type: string): Promise<T> {
  const token = await (await page.request.get('/session/token')).text();
  const res = await page.request.post(url, {
    headers: { 'Content-Type': type, 'X-CSRF-Token': token },
    data: JSON.stringify(body),
  });
  expect(res.ok(), `POST ${url}: ${res.status()} ${await res.text()}`).toBe(true);
  return (await res.json()) as T;
}

/** An organization owned by the signed-in user and one application in it; returns the app's title. */
export async function createApplicationByApi(
  page: Page,
  title: string,
): Promise<{ uuid: string; title: string }> {
  const org = await post<{ data: { id: string } }>(
    page,
    '/jsonapi/group/organization',
    {
      data: {
        type: 'group--organization',
        attributes: { label: `${title} team`, field_body: { value: 'Builds apps.', format: 'plain_text' } },
      },
    },
    'application/vnd.api+json',
  );
  const app = await post<{ data: { uuid: string; title: string } }>(
    page,
    '/api/application',
    {
      title,
      organization: org.data.id,
      description: `<p>${title} for the browser tests</p>`,
      allowedGrantTypes: ['client_credentials'],
      oAuthRedirectUri: [],
      postLogoutRedirectUri: [],
    },
    'application/json',
  );
  return app.data;
}
