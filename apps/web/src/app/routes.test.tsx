import { WEB_ROUTE_PATTERNS } from '@portico/contracts/web-routes';
import { describe, expect, it } from 'vitest';
import { routePatterns } from './routes';

describe('the router and the server agree on the pages that exist', () => {
  it('lists every route pattern of the router in the contracts (the catch-all and /404 aside)', () => {
    const router = routePatterns().filter((p) => p !== '*' && p !== '/404');
    expect([...router].sort()).toEqual([...WEB_ROUTE_PATTERNS].sort());
  });
});
