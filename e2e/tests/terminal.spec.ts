import { en } from '@portico/contracts/messages';
import { createOrganization, signUp } from '../support/applications.ts';
import { enter, openTerminal, terminal } from '../support/terminal.ts';
import { expectNoViolations } from '../support/axe.ts';
import { expect, test } from '../support/traffic.ts';

/** The in-browser terminal (issue 15, spec B 2.14, 2.17, 4, 5, 8, 9). */
const M = en.terminal;

test.use({ viewport: { width: 1280, height: 900 } });

test('T opens the terminal only for a signed-in user, above 900 px, with no input focused', async ({
  page,
}) => {
  test.setTimeout(60_000);
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await page.keyboard.press('t');
  await expect(page.getByTestId('terminal-launcher')).toHaveCount(0);
  await expect(terminal(page).window).toHaveCount(0);

  await signUp(page, 'Terry', 'Terminal');
  // Typing in a field is typing, not a shortcut.
  const field = page.getByRole('textbox').first();
  await field.focus();
  await page.keyboard.press('t');
  await expect(terminal(page).window).toHaveCount(0);
  await field.blur();

  // Not on a narrow screen.
  await page.setViewportSize({ width: 880, height: 900 });
  await expect(page.getByTestId('terminal-launcher')).toHaveCount(0);
  await page.keyboard.press('t');
  await expect(terminal(page).window).toHaveCount(0);

  await page.setViewportSize({ width: 1280, height: 900 });
  await expect(page.getByTestId('terminal-launcher')).toBeVisible();
  await openTerminal(page);
  // Default window 700x400 (the screen area) below its title bar.
  const box = await terminal(page).window.boundingBox();
  expect(Math.round(box!.width)).toBe(700);
  const screenBox = await page.locator('[data-testid="terminal-window"] > div').nth(1).boundingBox();
  expect(Math.round(screenBox!.height)).toBe(400);
  // The T typed while it is open goes to the terminal, not to a second window.
  await page.keyboard.press('t');
  await expect(terminal(page).window).toHaveCount(1);
  await expect(terminal(page).screen).toContainText('$ t');

  // Closing gives the launcher back; the launcher opens it too.
  await page.getByRole('button', { name: M.close }).click();
  await expect(terminal(page).window).toHaveCount(0);
  await page.getByTestId('terminal-launcher').click();
  await expect(terminal(page).window).toBeVisible();
});

test('commands print the spec messages; create-app and subscribe change the portal', async ({ page }) => {
  test.setTimeout(120_000);
  await signUp(page, 'Tina', 'Commands');
  await openTerminal(page);
  const { screen, window } = terminal(page);

  await enter(page, 'ls');
  await expect(screen).toContainText(M.noApps);
  await enter(page, 'go Anything');
  await expect(screen).toContainText(M.noApps);
  await enter(page, 'frobnicate');
  await expect(screen).toContainText(M.commandNotFound);
  await enter(page, 'help');
  await expect(screen).toContainText(M.helpHeader);
  await expect(screen).toContainText(M.help['create-app']);
  await enter(page, 'help lorem');
  await expect(screen).toContainText('Usage: lorem [paragraphs] [sentences]');
  await enter(page, 'help frobnicate');
  await expect(screen).toContainText('No help found for frobnicate');
  await enter(page, 'guid');
  await expect(screen).toContainText(/[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}/);
  await enter(page, 'lorem many');
  await expect(screen).toContainText(M.paragraphsNaN);
  await enter(page, 'lorem 1 few');
  await expect(screen).toContainText(M.sentencesNaN);
  await enter(page, 'clear');
  await expect(screen).not.toContainText(M.sentencesNaN);
  await enter(page, 'lorem');
  await expect(screen).toContainText(/[A-Z][a-z ]+\./);

  // create-app asks its inputs in order, with the input messages of spec B 5.
  const orgName = `Terminal Org ${Date.now()}`;
  const organization = await createOrganization(page, orgName);
  await enter(page, 'create-app');
  await expect(screen).toContainText('Title: ');
  await enter(page, '');
  await expect(screen).toContainText(M.valueRequired);
  await enter(page, 'Terminal App');
  await expect(screen).toContainText('Organization [Terminal Org');
  await enter(page, 'No Such Org');
  await expect(screen).toContainText('The value No Such Org is invalid. Allowed values: Terminal Org');
  await enter(page, ''); // the suggested (only) organization
  await expect(screen).toContainText('Description: ');
  await enter(page, 'x');
  await expect(screen).toContainText(en.applications.required);
  await enter(page, 'Created from the portal terminal');
  await expect(screen).toContainText('Allowed grant types');
  await enter(page, 'password');
  await expect(screen).toContainText(
    'The value password is invalid. Allowed values: authorization_code, client_credentials',
  );
  await enter(page, '');
  await expect(screen).toContainText(M.atLeastOne);
  await enter(page, 'client_credentials');
  await enter(page, 'client_credentials');
  await expect(screen).toContainText('The value client_credentials already exists.');
  await enter(page, '');
  // Last, a Yes/No question naming what is about to be created: only Yes or No is an answer.
  await expect(screen).toContainText(`Create the application Terminal App in ${orgName}? (Yes/No): `);
  await enter(page, 'maybe');
  await expect(screen).toContainText(M.expectedYesNo);
  await enter(page, 'Yes');
  await expect(screen).toContainText('Application Terminal App created.');
  await enter(page, 'ls');
  await expect(screen).toContainText(/Terminal App\s+Terminal Org/);

  // A refusal shows the server's text, else the generic message (spec B 8).
  const create = '**/phpsdk/organization/apps/create**';
  await page.route(create, (route) =>
    route.fulfill({
      status: 422,
      contentType: 'application/vnd.api+json',
      body: JSON.stringify({
        errors: [{ status: '422', title: 'The organization has too many applications.' }],
      }),
    }),
  );
  // The confirmation given on the command line is not asked.
  const again =
    'create-app --title=Another --description="Another application" --allowedGrantTypes=client_credentials --confirm=Yes';
  await enter(page, again);
  await enter(page, '');
  await expect(screen).toContainText('The organization has too many applications.');
  await page.unroute(create);
  await page.route(create, (route) => route.fulfill({ status: 502, body: '' }));
  await enter(page, again);
  await enter(page, '');
  await expect(screen).toContainText(M.somethingWrong);
  await page.unroute(create);

  // No: nothing is created, and a line says so.
  const changes: string[] = [];
  page.on('request', (request) => {
    const path = new URL(request.url()).pathname;
    if (path.startsWith('/phpsdk/organization/apps/create') || path === '/api/application')
      changes.push(path);
  });
  await enter(
    page,
    'create-app --title=Declined --description="Not wanted" --allowedGrantTypes=client_credentials',
  );
  await enter(page, ''); // the organization
  await expect(screen).toContainText(`Create the application Declined in ${orgName}? (Yes/No): `);
  await enter(page, 'no');
  await expect(screen).toContainText('Application Declined was not created.');
  await enter(page, 'ls');
  await expect(screen).toContainText(/was not created\.[^]*\$ ls[^]*Terminal App\s+Terminal Org/);
  await expect(screen).not.toContainText(/Declined\s+Terminal Org/);
  expect(changes).toEqual([]);

  // The application screens show it.
  await page.goto(`/organization/${organization}`);
  await expect(page.getByRole('link', { name: 'Terminal App' }).first()).toBeVisible();
  await expect(page.getByRole('link', { name: 'Declined' })).toHaveCount(0);

  // subscribe: the application to a product; the application page lists the subscription.
  await expect(window).toBeVisible();
  await window.getByTestId('terminal-screen').click();
  await enter(page, 'subscribe');
  await expect(screen).toContainText('Application');
  await enter(page, 'Terminal App');
  await expect(screen).toContainText('API product');
  await enter(page, 'Payments API');
  // A No first: nothing is subscribed; then Yes.
  await expect(screen).toContainText('Subscribe Terminal App to Payments API? (Yes/No): ');
  await enter(page, 'N');
  await expect(screen).toContainText(M.expectedYesNo);
  await enter(page, 'No');
  await expect(screen).toContainText('Terminal App was not subscribed to Payments API.');
  expect(changes).toEqual([]);
  await enter(page, 'subscribe "Terminal App" "Payments API"');
  await enter(page, 'YES');
  await expect(screen).toContainText(M.subscribed);
  expect(changes).toEqual(['/api/application']);

  // go: to the application's page by title; an unknown title is refused.
  await enter(page, 'go Nope');
  await expect(screen).toContainText(M.titleNotValid);
  await page.keyboard.press('Control+c');
  await enter(page, 'go Terminal App');
  await expect(page).toHaveURL(new RegExp(`/application/[0-9a-f-]{36}\\?organization=${organization}$`));
  // The application page itself (not the terminal's own text) lists the subscription.
  const main = page.getByRole('main');
  await expect(main.getByRole('heading', { level: 1, name: 'Terminal App' })).toBeVisible();
  await expect(main.getByText('Payments API').first()).toBeVisible();
});

test('history, Ctrl+C, tab completion and mini', async ({ page }) => {
  test.setTimeout(90_000);
  await signUp(page, 'Hugo', 'History');
  await openTerminal(page);
  const { screen, window } = terminal(page);

  await enter(page, 'guid');
  await enter(page, 'help ls');
  // Ctrl+C ends an input dialogue.
  await createOrganization(page, `History Org ${Date.now()}`);
  await enter(page, 'create-app');
  await expect(screen).toContainText('Title: ');
  await page.keyboard.press('Control+c');
  await expect(screen).toContainText('^C');
  // Arrow up walks back through the commands (answers are skipped), persisted across a reload.
  await page.reload();
  await expect(window).toBeVisible();
  await expect(screen).toContainText('Welcome to the Developers Portal terminal');
  await window.getByTestId('terminal-screen').click();
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('Enter');
  await expect(screen).toContainText('Usage: ls');
  const stored = await page.evaluate(
    () => JSON.parse(localStorage.getItem('portico-terminal') ?? '{}') as unknown,
  );
  expect(stored).toMatchObject({
    state: {
      history: expect.arrayContaining([expect.objectContaining({ command: 'create-app', canceled: true })]),
    },
  });

  // Tab completes commands.
  await page.keyboard.type('hel');
  await page.keyboard.press('Tab');
  await page.keyboard.type('gu');
  await page.keyboard.press('Tab');
  await page.keyboard.press('Enter');
  await expect(screen).toContainText('guid - ');

  // mini minifies to the title bar; the button restores.
  await enter(page, 'mini');
  await expect(window).toHaveAttribute('data-minified', 'true');
  await expect(screen).toBeHidden();
  await page.getByRole('button', { name: M.restore }).click();
  await expect(screen).toBeVisible();

  // The window moves with the keyboard on its title bar.
  const before = await window.boundingBox();
  await page.getByTestId('terminal-title-bar').focus();
  await page.keyboard.press('ArrowLeft');
  await expect.poll(async () => (await window.boundingBox())!.x).toBeLessThan(before!.x);
});

test('snake: a 400x400 canvas; turning into itself ends the game; Enter plays again; Escape quits', async ({
  page,
}) => {
  test.setTimeout(90_000);
  // The game moves one tile per frame on a 15 fps timer. On a busy machine the snake moved on
  // several tiles between two key presses and never met itself, so the page's clock is faked:
  // it runs as usual until the game is on screen, then a frame passes only when the test says so.
  await page.clock.install();
  await signUp(page, 'Sam', 'Snake');
  await openTerminal(page);
  const { screen, window } = terminal(page);
  await window.getByTestId('terminal-screen').click();
  await page.keyboard.type('sna');
  await page.keyboard.press('Tab');
  await page.keyboard.press('Enter');
  const canvas = window.getByRole('application', { name: M.snakeLabel });
  await expect(canvas).toBeVisible();
  await expect(canvas).toHaveAttribute('width', '400');
  await expect(canvas).toHaveAttribute('height', '400');
  const status = page.getByTestId('snake-status');
  // The snake grows to its initial tail of 5 tiles; an apple it meets on the way (placed at random,
  // on the real clock until it is paused below) adds one tile and one point.
  await expect
    .poll(async () => {
      const length = Number(await canvas.getAttribute('data-length'));
      const score = Number(/Score: (\d+)/.exec((await status.textContent()) ?? '')?.[1]);
      return length - score;
    })
    .toBe(5);

  await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 1_000);
  // Frames pass 10 ms at a time (a frame is 67 ms) until the one that shows the awaited state.
  const framesUntil = async (shown: () => Promise<boolean>) =>
    expect
      .poll(async () => {
        if (await shown()) return true;
        await page.clock.runFor(10);
        return shown();
      })
      .toBe(true);
  await page.keyboard.press('ArrowDown');
  await framesUntil(async () => (await canvas.getAttribute('data-direction')) === 'down');
  await page.keyboard.press('ArrowLeft');
  await framesUntil(async () => (await canvas.getAttribute('data-direction')) === 'left');
  await page.keyboard.press('ArrowUp');
  await framesUntil(async () => ((await status.textContent()) ?? '').includes('Game over!'));
  await expect(status).toContainText('Game over!');
  await page.keyboard.press('Enter');
  await expect(status).toContainText('Score: 0');

  await page.clock.resume();
  await page.keyboard.press('Escape');
  await expect(canvas).toHaveCount(0);
  await enter(page, 'guid');
  await expect(screen).toContainText('$ guid');
});

test('the terminal window has no accessibility violations', async ({ page }) => {
  test.setTimeout(60_000);
  await signUp(page, 'Ada', 'Terminal');
  await openTerminal(page);
  await expectNoViolations(page, 'the terminal');
});
