import type { QuickstartStep } from '@portico/contracts/quickstart';
import { describe, expect, it } from 'vitest';
import { advanceOnTarget, moveTo, onStepPage, splitNavigationUrl, type Here } from './steps';

const here = (pathname: string, search = '', hash = ''): Here => ({ pathname, search, hash });
const step = (target: string, extra: Partial<QuickstartStep> = {}): QuickstartStep => ({
  target,
  content: target,
  spotlightClicks: false,
  ...extra,
});

describe('a step navigationUrl (spec B 2.15)', () => {
  it('splits the page from the fragment', () => {
    expect(splitNavigationUrl('/documentation/accounts-v1#operation/listAccounts')).toEqual({
      page: '/documentation/accounts-v1',
      hash: '#operation/listAccounts',
    });
    expect(splitNavigationUrl('/organizations?createApplication=1')).toEqual({
      page: '/organizations?createApplication=1',
      hash: '',
    });
  });

  it('is on its page whatever the fragment, and a step without one is anywhere', () => {
    const url = '/documentation/accounts-v1#operation/listAccounts';
    expect(onStepPage(url, here('/documentation/accounts-v1'))).toBe(true);
    expect(onStepPage(url, here('/documentation/accounts-v1', '', '#operation/getAccount'))).toBe(true);
    expect(onStepPage(url, here('/documentation/payments-v1'))).toBe(false);
    expect(onStepPage('/organizations?createApplication=1', here('/organizations'))).toBe(false);
    expect(onStepPage(undefined, here('/anything'))).toBe(true);
  });

  it("is on its page under a language's prefix too, and moves there by the path the router takes", () => {
    expect(onStepPage('/', here('/de/'))).toBe(true);
    expect(onStepPage('/apiProduct/accounts-api-v1', here('/de/apiProduct/accounts-api-v1'))).toBe(true);
    expect(onStepPage('/apiProduct/accounts-api-v1', here('/de/apiProducts'))).toBe(false);
    const url = '/documentation/accounts-v1#operation/listAccounts';
    expect(moveTo(url, here('/de/documentation/accounts-v1'))).toEqual({
      kind: 'hash',
      hash: '#operation/listAccounts',
    });
    // The router's basename (/de) adds the prefix to the step's own path.
    expect(moveTo(url, here('/de/'))).toEqual({ kind: 'navigate', url });
    expect(moveTo('/', here('/de/'))).toEqual({ kind: 'stay' });
  });

  it('navigates to another page, sets only the fragment on the same page, stays otherwise', () => {
    const url = '/documentation/accounts-v1#operation/listAccounts';
    expect(moveTo(url, here('/apiProduct/accounts-api-v1'))).toEqual({ kind: 'navigate', url });
    expect(moveTo(url, here('/documentation/accounts-v1'))).toEqual({
      kind: 'hash',
      hash: '#operation/listAccounts',
    });
    expect(moveTo(url, here('/documentation/accounts-v1', '', '#operation/listAccounts'))).toEqual({
      kind: 'stay',
    });
    expect(moveTo('/organizations', here('/organizations', '?createApplication=1'))).toEqual({
      kind: 'navigate',
      url: '/organizations',
    });
    expect(moveTo('/organizations', here('/organizations', '', '#quickstart'))).toEqual({ kind: 'stay' });
    expect(moveTo(undefined, here('/'))).toEqual({ kind: 'stay' });
  });
});

describe('moving on after a click in the spotlight', () => {
  const tryIt = '/documentation/accounts-v1#operation/listAccounts';
  const steps = [
    step('#api-reference', { navigationUrl: '/documentation/accounts-v1' }),
    step('[data-tour="try-out"]', { navigationUrl: tryIt, spotlightClicks: true }),
    step('[data-tour="tryout-send"]', { spotlightClicks: true }),
    step('[data-tour="tryout-response"]'),
  ];

  it('waits for the next target when the step is clickable and the next one is on the same page', () => {
    expect(advanceOnTarget(steps, 1)).toBe('[data-tour="tryout-send"]');
    expect(advanceOnTarget(steps, 2)).toBe('[data-tour="tryout-response"]');
    expect(
      advanceOnTarget(
        [step('a', { navigationUrl: '/x', spotlightClicks: true }), step('b', { navigationUrl: '/x' })],
        0,
      ),
    ).toBe('b');
  });

  it('does not when the step is not clickable, is the last, or the next one is on another page', () => {
    expect(advanceOnTarget(steps, 0)).toBeNull();
    expect(advanceOnTarget(steps, 3)).toBeNull();
    expect(advanceOnTarget(steps, 9)).toBeNull();
    expect(
      advanceOnTarget(
        [
          step('main form', { navigationUrl: '/organization/create', spotlightClicks: true }),
          step('#main', { navigationUrl: '/organizations?createApplication=1' }),
        ],
        0,
      ),
    ).toBeNull();
  });
});
