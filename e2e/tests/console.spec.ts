import type { Browser, Page } from '@playwright/test';
import type { ConsoleDashboard } from '@portico/contracts/console-dashboard';
import { format } from '@portico/contracts/format';
import { en } from '@portico/contracts/messages';
import { consoleMessages as C } from '@portico/contracts/messages/console';
import { expectNoViolations } from '../support/axe.ts';
import { signUp } from '../support/applications.ts';
import { consoleLink, consoleNav, openConsoleSection } from '../support/console.ts';
import { createOrganizationByApi, createProductionApplication } from '../support/organizations.ts';
import { PROVIDER_TEAM, type TeamMember } from '../support/provider-team.ts';
import { demoAdmin, signIn } from '../support/session.ts';
import { expect, test, trackTraffic } from '../support/traffic.ts';

/**
 * The provider console (issue 27) per role, with real sign-ins: its home and navigation, the
 * go-live review moved into it, and the administrators' dashboard. The team's accounts
 * (support/provider-team.ts) are in the database from the portal's start.
 */
const D = C.dashboard;
const UI = en.applications.ui;

async function signedIn(browser: Browser, email: string, password: string): Promise<Page> {
  const context = await browser.newContext();
  trackTraffic(context);
  const page = await context.newPage();
  await signIn(page, email, password);
  await page
    .getByRole('dialog', { name: en.cookies.settingsTitle })
    .getByRole('button', { name: en.cookies.decline })
    .click();
  return page;
}

const asMember = (browser: Browser, m: TeamMember) => signedIn(browser, m.email, m.password);

/** The header's console link leads to the console's home. */
async function openConsole(page: Page): Promise<void> {
  await consoleLink(page).click();
  await expect(page).toHaveURL(/\/admin$/);
  await expect(page.getByRole('heading', { level: 1, name: C.title })).toBeVisible();
}

test('a go-live reviewer sees only the go-live section and approves a request from the console', async ({
  page,
  browser,
}) => {
  test.setTimeout(90_000);
  // A developer's application waits for the review (a new developer's: the demo developer's
  // applications are the try-out's and the terminal's, and must stay as the demo content has them).
  await signUp(page, 'Rhea', 'Review');
  const organization = await createOrganizationByApi(page, `Console review ${Date.now()}`);
  const title = `Console reviewed ${Date.now()}`;
  await createProductionApplication(page, organization, title);

  const reviewer = await asMember(browser, PROVIDER_TEAM.go_live_reviewer);
  await openConsole(reviewer);
  const nav = consoleNav(reviewer);
  await expect(nav.getByRole('link', { name: C.nav.goLive })).toBeVisible();
  for (const other of [C.nav.dashboard, C.nav.users, C.nav.outbox, C.nav.importApi, C.nav.supportQueue])
    await expect(nav.getByRole('link', { name: other, exact: true })).toHaveCount(0);
  await expect(reviewer.getByTestId('dashboard')).toHaveCount(0);
  await expectNoViolations(reviewer, '/admin (go-live reviewer)');

  await nav.getByRole('link', { name: C.nav.goLive }).click();
  await expect(reviewer).toHaveURL(/\/admin\/go-live$/);
  await expect(reviewer.getByRole('heading', { level: 1, name: UI.reviewTitle })).toBeVisible();
  await expect(nav.getByRole('link', { name: C.nav.goLive })).toHaveAttribute('aria-current', 'page');
  const request = reviewer.getByTestId('go-live-request').filter({ hasText: title });
  await expect(request).toContainText('olga@example.com');
  await expectNoViolations(reviewer, '/admin/go-live (go-live reviewer)');
  await request.getByRole('button', { name: UI.approve }).click();
  await reviewer.getByRole('dialog', { name: UI.approve }).getByRole('button', { name: UI.approve }).click();
  await expect(request).toHaveCount(0);
  await reviewer.getByText(UI.approved, { exact: true }).click();
  const decided = reviewer.getByTestId('go-live-request').filter({ hasText: title });
  await expect(decided.getByTestId('request-status')).toHaveText(UI.approved);
  await expect(decided.getByTestId('decision')).toContainText(`${UI.approved} by Rey Reviewer`);

  // The administrators' pages are not theirs.
  await reviewer.goto('/admin/outbox');
  await expect(reviewer.getByTestId('console-refused')).toContainText(
    format(C.rolesOnly, { roles: C.roles.administrator }),
  );
  await reviewer.context().close();
});

test('a support agent has the support queue but not the users, the dashboard or the go-live review', async ({
  browser,
}) => {
  const agent = await asMember(browser, PROVIDER_TEAM.support_agent);
  await openConsole(agent);
  const nav = consoleNav(agent);
  await expect(nav.getByRole('link', { name: C.nav.supportQueue, exact: true })).toBeVisible();
  for (const other of [C.nav.dashboard, C.nav.users, C.nav.goLive, C.nav.supportStaff])
    await expect(nav.getByRole('link', { name: other, exact: true })).toHaveCount(0);
  await expect(agent.getByTestId('dashboard')).toHaveCount(0);

  await agent.goto('/admin/go-live');
  const refused = agent.getByTestId('console-refused');
  await expect(refused.getByRole('heading', { level: 1, name: en.errors.unauthorized })).toBeVisible();
  await expect(refused).toContainText(
    format(C.rolesOnly, { roles: `${C.roles.administrator}, ${C.roles.go_live_reviewer}` }),
  );
  // The header's console link still leads to what the agent may use.
  await openConsoleSection(agent, C.nav.supportQueue);
  await expect(agent.getByRole('heading', { level: 1, name: en.support.queueTitle })).toBeVisible();
  await agent.context().close();
});

test('the administrator sees the dashboard with its figures, for a range of their choice', async ({
  browser,
}) => {
  test.setTimeout(60_000);
  const admin = await signedIn(browser, demoAdmin.email, demoAdmin.password);
  await openConsole(admin);
  const dashboard = admin.getByTestId('dashboard');
  await expect(dashboard.getByRole('heading', { level: 2, name: D.title })).toBeVisible();
  await expect(consoleNav(admin).getByRole('link', { name: C.nav.dashboard })).toHaveAttribute(
    'aria-current',
    'page',
  );

  // The figures are the server's, for the last 30 days.
  const res = await admin.request.get('/admin-api/dashboard');
  expect(res.status()).toBe(200);
  const d = ((await res.json()) as { data: { attributes: ConsoleDashboard } }).data.attributes;
  const figure = (id: string) => dashboard.getByTestId(id).locator('dd').first();
  await expect(figure('figure-active-organizations')).toHaveText(String(d.activeOrganizations));
  await expect(figure('figure-apps-development')).toHaveText(String(d.applications.development));
  await expect(figure('figure-apps-production')).toHaveText(String(d.applications.production));
  await expect(figure('figure-go-live-waiting')).toHaveText(String(d.goLive.waiting));
  const signUps = d.signUps.reduce((n, s) => n + s.count, 0);
  // The demo accounts and the provider team signed up at the portal's start.
  expect(signUps).toBeGreaterThanOrEqual(6);
  await expect(dashboard.getByTestId('dashboard-sign-ups-summary')).toHaveText(
    format(D.signUpsSummary, { total: signUps, from: d.from, to: d.to }),
  );
  const tickets = Object.values(d.openTickets).reduce((n, c) => n + c, 0);
  await expect(dashboard.getByTestId('dashboard-tickets-summary')).toHaveText(
    format(D.openTicketsSummary, { total: tickets }),
  );
  // Each chart's figures as a table, behind a disclosure.
  const signUpSection = dashboard.getByTestId('dashboard-sign-ups');
  await signUpSection.getByText(D.showTable).click();
  const today = d.signUps.at(-1)!;
  await expect(
    signUpSection.getByRole('table', { name: D.signUps }).getByRole('row', { name: today.day }),
  ).toContainText(String(today.count));
  await expectNoViolations(admin, '/admin (administrator, dashboard)');

  // A range of the past: nobody signed up, no calls.
  await dashboard.getByLabel(UI.fromDate).fill('2020-01-01');
  await dashboard.getByLabel(UI.toDate).fill('2020-01-31');
  await dashboard.getByRole('button', { name: D.apply }).click();
  await expect(dashboard.getByTestId('dashboard-sign-ups-summary')).toHaveText(
    format(D.signUpsSummary, { total: 0, from: '2020-01-01', to: '2020-01-31' }),
  );
  await expect(dashboard.getByText(D.noCalls)).toBeVisible();

  // Too long a range: the server's reason.
  await dashboard.getByLabel(UI.fromDate).fill('2018-01-01');
  await dashboard.getByRole('button', { name: D.apply }).click();
  await expect(dashboard.getByRole('alert')).toHaveText(format(D.tooLong, { max: 366 }));
  await expectNoViolations(admin, '/admin (administrator, refused range)');
  await admin.context().close();
});

test('the console is a chunk of its own: the home page loads none of it, a deep link and its reload open the page, an unknown /admin path is the 404 page', async ({
  browser,
  page,
}) => {
  // A visitor's home page fetches no script of the console's route table.
  const scripts: string[] = [];
  page.on('request', (r) => {
    if (r.resourceType() === 'script') scripts.push(new URL(r.url()).pathname);
  });
  await page.goto('/');
  await expect(page.getByText('CONNECT ON A GLOBAL SCALE')).toBeVisible();
  expect(scripts.length).toBeGreaterThan(0);
  expect(scripts.filter((s) => s.includes('console-routes'))).toEqual([]);

  const admin = await signedIn(browser, demoAdmin.email, demoAdmin.password);
  // A deep link: the server's HTML announces the console's table and the page's chunk.
  const deep = await admin.goto('/admin/users');
  expect(deep?.status()).toBe(200);
  const hints = await admin
    .locator('link[rel="modulepreload"]')
    .evaluateAll((links) => links.map((l) => l.getAttribute('href') ?? ''));
  expect(hints.some((h) => h.includes('console-routes'))).toBe(true);
  expect(hints.some((h) => h.includes('users-page'))).toBe(true);
  await expect(admin.getByRole('heading', { level: 1, name: C.users.title })).toBeVisible();
  await admin.reload();
  await expect(admin.getByRole('heading', { level: 1, name: C.users.title })).toBeVisible();
  // From there to another section and back to the console's home, inside the app.
  await openConsoleSection(admin, C.nav.audit);
  await expect(admin).toHaveURL(/\/admin\/audit$/);
  await consoleNav(admin).getByRole('link', { name: C.nav.dashboard }).click();
  await expect(admin.getByTestId('dashboard')).toBeVisible();

  // An unknown path under /admin: the 404 page, and the server says 404 too.
  const unknown = await admin.goto('/admin/no-such-section');
  expect(unknown?.status()).toBe(404);
  await expect(admin.getByRole('heading', { level: 1, name: en.errors.notFoundTitle })).toBeVisible();
  await expect(admin.locator('meta[name="status-code"]')).toHaveAttribute('content', '404');
  await expectNoViolations(admin, '/admin/no-such-section');
  await admin.context().close();
});
