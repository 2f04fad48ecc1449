import { describe, expect, it } from 'vitest';
import { CompiledApi } from './compiled-api.ts';
import type { OpenApiDocument } from '../openapi/document.ts';

/** The router's index (route-index.ts) finds what trying every route in order of precedence finds. */
describe('the sandbox router', () => {
  const templates = [
    '/',
    '/accounts',
    '/accounts/',
    '/accounts/me',
    '/accounts/{id}',
    '/accounts/{id}/cards',
    '/{tenant}/accounts',
    '/{tenant}/{id}',
    '/files/{name}.json',
    '/files/{name}',
    'relative/{id}',
    '/#Action=Attach',
    '/#Action=Detach',
  ];
  const doc: OpenApiDocument = {
    paths: Object.fromEntries(
      templates.map((t, i) => [t, i % 2 ? { get: {}, post: {} } : { get: {}, delete: {} }]),
    ),
  };

  /** What the router before the index answered: every route's regex, in order of precedence. */
  function linear(method: string, path: string, query = '') {
    const routes = templates.flatMap((template, seq) => {
      const hash = template.indexOf('#');
      const pathPart = hash === -1 ? template : template.slice(0, hash) || '/';
      const names = [...pathPart.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
      const pattern = pathPart
        .split(/(\{[^}]+\})/)
        .map((p) => (/^\{[^}]+\}$/.test(p) ? '([^/]+)' : p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
        .join('');
      const fragment = hash === -1 ? undefined : template.slice(hash + 1).split('=');
      const literalLength = template.replace(/\{[^}]+\}/g, '').length;
      return Object.keys(doc.paths![template]!).map((m) => ({
        method: m.toUpperCase(),
        template,
        regex: new RegExp(`^${pattern}/?$`),
        names,
        literalLength,
        fragment,
        seq,
      }));
    });
    routes.sort((a, b) => a.names.length - b.names.length || b.literalLength - a.literalLength);
    const allowed = new Set<string>();
    for (const route of routes) {
      if (!route.regex.test(path)) continue;
      if (route.fragment && new URLSearchParams(query).get(route.fragment[0]!) !== route.fragment[1])
        continue;
      if (route.method !== method) {
        allowed.add(route.method);
        continue;
      }
      return route.template;
    }
    return allowed.size ? { allowed: [...allowed].sort() } : undefined;
  }

  it('matches as trying every route in order of precedence does', async () => {
    const router = await CompiledApi.router(doc);
    const sync = new CompiledApi(doc);
    const paths = [
      '/',
      '//',
      '/accounts',
      '/accounts/',
      '/accounts//',
      '/accounts/me',
      '/accounts/me/',
      '/accounts/42',
      '/accounts/42/cards',
      '/acme/accounts',
      '/acme/accounts/',
      '/acme/42',
      '/files/a.json',
      '/files/a.xml',
      '/files/a.json/',
      '/nothing/here/at/all',
      'relative/1',
      '',
    ];
    for (const path of paths) {
      for (const method of ['GET', 'POST', 'DELETE', 'PUT']) {
        for (const query of ['', 'Action=Detach']) {
          const request = { query: new URLSearchParams(query), headers: {} };
          const expected = linear(method, path || '/', query);
          for (const api of [router, sync]) {
            const got = api.match(method, path, request);
            const answer = got && ('allowed' in got ? { allowed: got.allowed } : got.template);
            expect(answer, `${method} ${path} ${query}`).toEqual(expected);
          }
        }
      }
    }
  });

  it('builds the router of a big document a slice at a time', async () => {
    const paths = Object.fromEntries(
      Array.from({ length: 8000 }, (_, i) => [`/things${i}/{id}`, { get: {}, put: {} }]),
    );
    let turns = 0;
    const counting = setInterval(() => turns++, 0);
    const router = await CompiledApi.router({ paths }, 1);
    clearInterval(counting);
    expect(turns).toBeGreaterThan(0);
    const found = router.match('PUT', '/things7999/abc');
    expect(found && !('allowed' in found) && found.template).toBe('/things7999/{id}');
    expect(router.match('PATCH', '/things12/x/')).toEqual({ allowed: ['GET', 'PUT'] });
  });
});
