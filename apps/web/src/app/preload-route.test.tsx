import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { paths } from '../config/paths';
import { preloadRoute } from './routes';

/** A fetch that answers the documentation's two first requests, and records what was asked. */
function stubApi() {
  const asked: string[] = [];
  vi.stubGlobal('window', { location: { origin: 'http://portal.test' } });
  vi.stubGlobal(
    'fetch',
    vi.fn((url: string) => {
      const { pathname } = new URL(url, 'http://portal.test');
      asked.push(pathname);
      const body = pathname.endsWith('/index')
        ? { alias: 'accounts-v1', contentHash: 'h1', tags: [], operations: [] }
        : { data: { id: 'doc-1', type: 'node--api_documentation', attributes: { alias: 'accounts-v1' } } };
      return Promise.resolve(
        new Response(JSON.stringify(body), { headers: { 'content-type': 'application/vnd.api+json' } }),
      );
    }),
  );
  return asked;
}

describe('the first page is loaded before the first render', () => {
  afterEach(() => vi.unstubAllGlobals());

  it("puts the documentation page's first data in the cache: the documentation and its index", async () => {
    const asked = stubApi();
    const client = new QueryClient();
    await preloadRoute('/documentation/accounts-v1', client);
    expect(asked.sort()).toEqual([
      '/api/apidocs/accounts-v1/index',
      '/jsonapi/node/api_documentation/accounts-v1',
    ]);
    expect(client.getQueryData(['documentation', 'accounts-v1'])).toMatchObject({ data: { id: 'doc-1' } });
    expect(client.getQueryData(['documentation', 'index', 'accounts-v1'])).toMatchObject({
      contentHash: 'h1',
    });
  });

  it('asks for no data for a page whose route names none', async () => {
    const asked = stubApi();
    await preloadRoute(paths.faq, new QueryClient());
    expect(asked).toEqual([]);
  });
});
