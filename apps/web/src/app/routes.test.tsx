import { WEB_ROUTE_PATTERNS } from '@portico/contracts/web-routes';
import { describe, expect, it } from 'vitest';
import { paths } from '../config/paths';
import { consoleRoutePatterns } from './console-routes';
import { routePatterns } from './routes';

describe('the router and the server agree on the pages that exist', () => {
  it('lists every route pattern of the router and of the console in the contracts (the catch-all and /404 aside)', () => {
    const router = routePatterns().filter((p) => p !== '*' && p !== '/404' && p !== paths.consolePages);
    expect([...router, ...consoleRoutePatterns()].sort()).toEqual([...WEB_ROUTE_PATTERNS].sort());
  });

  it('leaves every page under /admin to the console: the developer router has one entry for them', () => {
    expect(routePatterns().filter((p) => p === '/admin' || p.startsWith('/admin/'))).toEqual([
      paths.consolePages,
    ]);
    expect(
      consoleRoutePatterns().every((p) => p === paths.console || p.startsWith(`${paths.console}/`)),
    ).toBe(true);
  });
});
