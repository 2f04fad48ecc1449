import { describe, expect, it } from 'vitest';
import { isWebRoute, matchesRoutePattern } from './web-routes.ts';

describe('web routes', () => {
  it.each([
    ['/', true],
    ['/organizations', true],
    ['/organization/abc/members', true],
    ['/organization/abc/members/x', false],
    ['/apiProduct/p1', true],
    ['/apiProduct/p1/docs', true],
    ['/apiProduct', false],
    ['/partner/x/y', true],
    ['/news/2020/item', true],
    ['/no-such-page', false],
    ['/404', false],
  ])('%s is a route: %s', (path, expected) => expect(isWebRoute(path)).toBe(expected));

  it('matches optional parameters only at the end and splats anywhere below', () => {
    expect(matchesRoutePattern('/a/:b?', '/a')).toBe(true);
    expect(matchesRoutePattern('/a/:b', '/a')).toBe(false);
    expect(matchesRoutePattern('/a/*', '/a')).toBe(true);
    expect(matchesRoutePattern('/a/*', '/b')).toBe(false);
  });
});
