import { expect, test, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { en } from '@portico/contracts/messages';
import { demoAdmin, signIn, uniqueEmail, verifyEmail } from '../support/session.ts';
import {
  account,
  chooseFiles,
  createOrganizationByApi,
  createProductionApplication,
  inviteByApi,
  exeFile,
  fakePdf,
  pdfFile,
  pngFile,
  signUp,
  textFile,
} from '../support/organizations.ts';

const M = en.organizations;

/**
 * Organizations end to end (issue 4, spec A 2-5): an owner and an invitee, each a fresh account
 * made through sign-up in their own browser context, walk the organization screens in order.
 * The PRODUCTION application that blocks a delete is made through the applications calls
 * (create, subscribe, go-live form), as a developer would.
 */
test.describe.configure({ mode: 'serial', timeout: 120_000 });

const suffix = `${Date.now()}`.slice(-6);
const owner = account('Olga', `Owner${suffix}`, uniqueEmail('owner'));
const invitee = account('Ivan', `Invitee${suffix}`, uniqueEmail('invitee'));
const orgName = `Acme ${suffix}`;
const renamed = `Acme Rockets ${suffix}`;
let orgId = '';
let zetaId = '';

let ownerContext: BrowserContext;
let ownerPage: Page;

async function newPage(browser: Browser): Promise<[BrowserContext, Page]> {
  const context = await browser.newContext();
  return [context, await context.newPage()];
}

test.beforeAll(async ({ browser }) => {
  [ownerContext, ownerPage] = await newPage(browser);
});

test.afterAll(async () => {
  await ownerContext.close();
});

function membersRow(page: Page, text: string) {
  return page.getByRole('row').filter({ hasText: text });
}

test('the organization pages need a signed-in user', async ({ page }) => {
  await page.goto('/organizations');
  await expect(page.getByRole('heading', { name: en.errors.unauthorized })).toBeVisible();
  await expect(page.getByRole('link', { name: en.errors.loginToView })).toBeVisible();
});

test('an owner creates an organization with an image and lands on its page', async () => {
  const page = ownerPage;
  await signUp(page, owner);
  await page.goto('/organizations');
  await expect(page.getByRole('heading', { name: M.listTitle })).toBeVisible();
  await expect(page.getByText(M.noOrganizations)).toBeVisible();

  await page.getByRole('link', { name: M.createButton }).click();
  await expect(page).toHaveURL(/\/organization\/create$/);
  await expect(page.getByRole('heading', { name: M.createTitle })).toBeVisible();
  // Title is required: on submit, and after the field was left empty.
  await page.getByRole('button', { name: M.createSubmit }).click();
  await expect(page.getByText(M.titleRequired)).toBeVisible();

  await page.getByLabel(M.fieldTitle).fill(orgName);
  await expect(page.getByText(M.titleRequired)).toHaveCount(0);
  await page.getByLabel(M.fieldDescription).fill('We build rockets.\nAnd the portal for their APIs.');
  await chooseFiles(page, M.fieldImage, [pngFile]);
  await page.getByRole('button', { name: M.createSubmit }).click();

  // Spec A 2: after creating, the organization's single view.
  await page.waitForURL(/\/organization\/[0-9a-f-]{36}$/);
  orgId = page.url().split('/').pop()!;
  await expect(page.getByRole('heading', { name: orgName, level: 1 })).toBeVisible();
  await expect(page.getByText('We build rockets.')).toBeVisible();
  const image = page.getByRole('img', { name: `Image of ${orgName}` });
  await expect(image).toBeVisible();
  expect(await image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(8);
  const crumbs = page.getByRole('navigation', { name: 'Breadcrumb' });
  await expect(crumbs.getByRole('link', { name: M.breadcrumbOrganizations })).toBeVisible();
  await expect(crumbs.getByText(orgName)).toBeVisible();
  await expect(page.getByText(M.noApplications)).toBeVisible();
  await expect(page.getByText(M.noDocuments)).toBeVisible();
});

test('MY ORGANIZATIONS sorts by NAME and CREATED, and leads to the create-application form in that mode', async () => {
  const page = ownerPage;
  const zeta = `Zeta ${suffix}`;
  zetaId = await createOrganizationByApi(page, zeta);
  await page.goto('/organizations');
  const names = page.getByRole('table').getByRole('row').locator('td:first-child a');
  await expect(names).toHaveText([orgName, zeta]);

  const nameHeader = page.getByRole('columnheader', { name: M.columnName });
  await expect(nameHeader).toHaveAttribute('aria-sort', 'ascending');
  await nameHeader.getByRole('button').click();
  await expect(nameHeader).toHaveAttribute('aria-sort', 'descending');
  await expect(names).toHaveText([zeta, orgName]);

  const createdHeader = page.getByRole('columnheader', { name: M.columnCreated });
  await createdHeader.getByRole('button').click();
  await expect(createdHeader).toHaveAttribute('aria-sort', 'ascending');
  await expect(names).toHaveText([orgName, zeta]);
  await createdHeader.getByRole('button').click();
  await expect(createdHeader).toHaveAttribute('aria-sort', 'descending');
  await expect(names).toHaveText([zeta, orgName]);
  await expect(page.getByRole('link', { name: zeta })).toHaveAttribute('href', `/organization/${zetaId}`);

  await page.goto('/organizations?createApplication=1');
  await expect(page.getByText(M.chooseForApplication)).toBeVisible();
  await expect(page.getByRole('link', { name: orgName })).toHaveAttribute(
    'href',
    `/application?organization=${orgId}`,
  );
});

test('the owner invites a member with roles; the form checks e-mails and roles', async () => {
  const page = ownerPage;
  await page.goto(`/organization/${orgId}`);
  await page.getByRole('button', { name: M.organizationMenu }).click();
  await page.getByRole('menuitem', { name: M.viewMembers }).click();
  await expect(page).toHaveURL(new RegExp(`/organization/${orgId}/members$`));
  await expect(page.getByRole('heading', { name: M.membersTitle })).toBeVisible();
  const crumbs = page.getByRole('navigation', { name: 'Breadcrumb' });
  await expect(crumbs.getByRole('link', { name: orgName })).toBeVisible();
  await expect(crumbs.getByText(M.breadcrumbMembers)).toBeVisible();
  for (const column of [M.columnMemberName, M.columnMemberStatus, M.columnRole, M.columnOperations])
    await expect(page.getByRole('columnheader', { name: column })).toBeVisible();
  // The creator: owner, active, never removable.
  const ownerRow = membersRow(page, `${owner.firstName} ${owner.lastName}`);
  await expect(ownerRow).toContainText(M.creatorBadge);
  await expect(ownerRow).toContainText(M.statusActive);
  await expect(ownerRow).toContainText('Organization Owner');
  await expect(ownerRow.getByRole('button', { name: M.removeMember })).toHaveCount(0);

  await page.getByRole('button', { name: M.inviteButton }).click();
  const dialog = page.getByRole('dialog', { name: M.inviteTitle });
  await expect(dialog).toBeVisible();
  // The first row cannot be removed.
  await expect(dialog.getByRole('button', { name: 'Remove member 1' })).toHaveCount(0);
  await dialog.getByRole('button', { name: M.sendInvitations }).click();
  await expect(dialog.getByText(M.invalidEmail)).toBeVisible();
  await expect(dialog.getByText(M.rolesRequired)).toBeVisible();

  // More rows can be added and removed again; validation also runs on blur.
  await dialog.getByRole('button', { name: M.addMemberRow }).click();
  const second = dialog.getByRole('group', { name: 'Member 2' });
  await second.getByLabel(M.emailLabel).fill('not-an-email');
  await second.getByLabel(M.emailLabel).blur();
  await expect(second.getByText(M.invalidEmail)).toBeVisible();
  await dialog.getByRole('button', { name: 'Remove member 2' }).click();
  await expect(second).toHaveCount(0);

  const first = dialog.getByRole('group', { name: 'Member 1' });
  await first.getByLabel(M.emailLabel).fill(invitee.email);
  await expect(first.getByText(M.invalidEmail)).toHaveCount(0);
  await first.getByLabel('Developer').check();
  await first.getByLabel('Legal').check();
  await expect(first.getByText(M.rolesRequired)).toHaveCount(0);
  await dialog.getByRole('button', { name: M.sendInvitations }).click();
  await expect(dialog).toBeHidden();
  await expect(
    page.getByRole('status').filter({ hasText: `Invitation sent to ${invitee.email}` }),
  ).toBeVisible();

  const row = membersRow(page, invitee.email);
  await expect(row).toContainText(M.statusPending);
  await expect(row).toContainText('Developer, Legal');
  await row.getByRole('button', { name: M.resendInvitation }).click();
  await expect(page.getByRole('status').filter({ hasText: M.invitationSent })).toHaveText(M.invitationSent);

  // Inviting the same address again: the server's message under that row.
  await page.getByRole('button', { name: M.inviteButton }).click();
  await dialog.getByLabel(M.emailLabel).fill(invitee.email);
  await dialog.getByLabel('Financial').check();
  await dialog.getByRole('button', { name: M.sendInvitations }).click();
  await expect(dialog.getByText(M.alreadyInvited)).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
});

test('the invitee signs up, accepts one invitation from the banner and ignores another', async ({
  browser,
}) => {
  const [context, page] = await newPage(browser);
  try {
    await signUp(page, invitee);
    // Signing up proves nothing about the address: the invitation waits until it is confirmed.
    await page.goto('/organizations');
    await expect(page.getByRole('region', { name: en.identity.verifyTitle })).toContainText(
      en.identity.emailNotVerified.replace('{{email}}', invitee.email),
    );
    await expect(page.getByRole('link', { name: orgName })).toHaveCount(0);
    await verifyEmail(page, browser, invitee.email);
    await expect(page.getByRole('region', { name: en.identity.verifyTitle })).toHaveCount(0);
    const row = page.getByRole('row').filter({ hasText: orgName });
    await expect(row).toContainText(M.pendingInvitationBadge);
    await row.getByRole('link', { name: orgName }).click();
    const banner = page.getByRole('alert').filter({ hasText: `You have been invited to join ${orgName}.` });
    await expect(banner).toBeVisible();
    await expect(banner).toContainText('Developer, Legal');
    // Before accepting: no documents, applications or menu.
    await expect(page.getByRole('heading', { name: M.documentsTitle })).toHaveCount(0);
    await banner.getByRole('button', { name: M.acceptInvitation }).click();
    await expect(banner).toBeHidden();
    await expect(page.getByRole('heading', { name: M.documentsTitle })).toBeVisible();
    await expect(page.getByRole('heading', { name: M.applicationsTitle })).toBeVisible();
    // A developer may not delete the organization.
    await expect(page.getByRole('button', { name: M.deleteButton })).toHaveCount(0);

    // A second invitation, ignored: the membership goes and so does the organization from the list.
    await inviteByApi(ownerPage, zetaId, invitee.email, ['organization-financial']);
    await page.goto('/organizations');
    const zeta = `Zeta ${suffix}`;
    await page.getByRole('row').filter({ hasText: zeta }).getByRole('link', { name: zeta }).click();
    await page.getByRole('button', { name: M.ignoreInvitation }).click();
    await expect(page).toHaveURL(/\/organizations$/);
    await expect(page.getByRole('link', { name: orgName })).toBeVisible();
    await expect(page.getByRole('link', { name: zeta })).toHaveCount(0);
  } finally {
    await context.close();
  }
});

test('the owner edits the new member’s roles; unchanged roles send nothing', async () => {
  const page = ownerPage;
  await page.goto(`/organization/${orgId}/members`);
  const row = membersRow(page, invitee.email);
  await expect(row).toContainText(M.statusActive);
  await expect(row).toContainText(`${invitee.firstName} ${invitee.lastName}`);
  await row.getByRole('button', { name: M.editRoles }).click();
  const dialog = page.getByRole('dialog', { name: `Edit roles of ${invitee.firstName} ${invitee.lastName}` });
  await dialog.getByLabel('Developer').uncheck();
  await dialog.getByLabel('Legal').uncheck();
  await expect(dialog.getByText(M.roleRequired)).toBeVisible();
  await dialog.getByLabel('Financial').check();
  await dialog.getByRole('button', { name: M.saveButton }).click();
  await expect(dialog).toBeHidden();
  await expect(row.getByRole('cell').nth(2)).toHaveText('Financial');

  // Unchanged roles: the dialog closes without a call.
  const patches: string[] = [];
  page.on('request', (r) => {
    if (r.method() === 'PATCH') patches.push(r.url());
  });
  await row.getByRole('button', { name: M.editRoles }).click();
  await dialog.getByRole('button', { name: M.saveButton }).click();
  await expect(dialog).toBeHidden();
  expect(patches).toEqual([]);

  // The creator keeps the owner role.
  await membersRow(page, `${owner.firstName} ${owner.lastName}`)
    .getByRole('button', { name: M.editRoles })
    .click();
  const ownerDialog = page.getByRole('dialog', { name: new RegExp(`Edit roles of ${owner.firstName}`) });
  await expect(ownerDialog.getByLabel('Organization Owner')).toBeChecked();
  await expect(ownerDialog.getByLabel('Organization Owner')).toBeDisabled();
  await ownerDialog.getByRole('button', { name: M.cancelButton }).click();
});

test('documents upload one by one; refused files show why and vanish after 10 s', async () => {
  const page = ownerPage;
  await page.goto(`/organization/${orgId}`);
  const upload = page.getByRole('button', { name: M.uploadButton, exact: true });
  await expect(upload).toBeDisabled();
  // The queue: each upload starts only when the one before has finished.
  const events: string[] = [];
  const isUpload = (r: { method(): string; url(): string }) =>
    r.method() === 'POST' && r.url().includes('/field_documents');
  page.on('request', (r) => {
    if (isUpload(r)) events.push('start');
  });
  page.on('requestfinished', (r) => {
    if (isUpload(r)) events.push('end');
  });
  await chooseFiles(page, M.chooseFiles, [
    textFile('notes.txt'),
    exeFile('tool.exe'),
    pdfFile('terms.pdf'),
    fakePdf('fake.pdf'),
  ]);
  await expect(upload).toBeEnabled();
  await upload.click();

  const documents = page.getByRole('list', { name: M.documentsTitle });
  await expect(documents.getByRole('link', { name: 'notes.txt' })).toBeVisible();
  await expect(documents.getByRole('link', { name: 'terms.pdf' })).toBeVisible();
  const refused = page.getByRole('alert').filter({ hasText: `tool.exe: ${M.uploadFailed}` });
  await expect(refused).toContainText(M.extensionNotAllowed);
  const mismatch = page.getByRole('alert').filter({ hasText: `fake.pdf: ${M.uploadFailed}` });
  await expect(mismatch).toContainText(M.contentMismatch);
  await expect(page.getByText(M.uploadsDone)).toHaveCount(0);
  // The .exe is refused before sending; the other three went to the server, one after the other.
  expect(events).toEqual(['start', 'end', 'start', 'end', 'start', 'end']);
  await expect(documents.getByRole('link', { name: 'fake.pdf' })).toHaveCount(0);
  // The download link serves the bytes to members.
  const href = await documents.getByRole('link', { name: 'notes.txt' }).getAttribute('href');
  const file = await page.request.get(href!);
  expect(await file.text()).toContain('Technical notes');

  // Spec A 8: upload errors vanish after 10 seconds.
  await expect(refused).toBeHidden({ timeout: 13_000 });
  await expect(mismatch).toBeHidden();

  // Removing a document keeps the others.
  await page.getByRole('button', { name: 'Remove terms.pdf' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'terms.pdf has been removed.' })).toBeVisible();
  await expect(documents.getByRole('link', { name: 'terms.pdf' })).toHaveCount(0);
  await expect(documents.getByRole('link', { name: 'notes.txt' })).toBeVisible();
});

test('EDIT ORGANIZATION saves and returns to the single view', async () => {
  const page = ownerPage;
  await page.goto(`/organization/${orgId}`);
  await page.getByRole('button', { name: M.organizationMenu }).click();
  await page.getByRole('menuitem', { name: M.editOrganization }).click();
  await expect(page).toHaveURL(new RegExp(`/organization/${orgId}/edit$`));
  await expect(page.getByRole('heading', { name: M.editTitle })).toBeVisible();
  const crumbs = page.getByRole('navigation', { name: 'Breadcrumb' });
  await expect(crumbs.getByText(M.breadcrumbEdit)).toBeVisible();
  await expect(page.getByRole('link', { name: M.backToOverview })).toHaveAttribute(
    'href',
    `/organization/${orgId}`,
  );
  await page.getByLabel(M.fieldTitle).fill('');
  await page.getByLabel(M.fieldTitle).blur();
  await expect(page.getByText(M.titleRequired)).toBeVisible();
  await page.getByLabel(M.fieldTitle).fill(renamed);
  await page.getByRole('button', { name: M.saveButton }).click();
  await expect(page).toHaveURL(new RegExp(`/organization/${orgId}$`));
  await expect(page.getByRole('heading', { name: renamed, level: 1 })).toBeVisible();
  // The image stays.
  await expect(page.getByRole('img', { name: `Image of ${renamed}` })).toBeVisible();
});

test('an organization with an application in PRODUCTION cannot be deleted', async () => {
  const page = ownerPage;
  const appTitle = `Budget app ${suffix}`;
  const appId = await createProductionApplication(page, orgId, appTitle);
  await page.goto(`/organization/${orgId}`);
  const row = page.getByRole('row').filter({ hasText: appTitle });
  await expect(row).toContainText('PRODUCTION');
  // Spec A 2: the application link carries the organization query parameter.
  await expect(row.getByRole('link', { name: appTitle })).toHaveAttribute(
    'href',
    `/application/${appId}?organization=${orgId}`,
  );
  await page.getByRole('button', { name: M.deleteButton }).click();
  const dialog = page.getByRole('dialog', { name: M.deleteTitle });
  await dialog.getByRole('button', { name: M.deleteConfirm, exact: true }).click();
  await expect(dialog.getByTestId('delete-organization-text')).toHaveText(
    /^This action is not allowed\. You should contact \S+@\S+\. This action cannot be undone\.$/,
  );
  await expect(dialog.getByRole('button', { name: M.deleteConfirm, exact: true })).toHaveCount(0);
  await dialog.getByRole('button', { name: M.closeButton, exact: true }).click();
  await page.reload();
  await expect(page.getByRole('heading', { name: renamed, level: 1 })).toBeVisible();
});

test('DELETE ORGANIZATION warns, then deletes and returns to the list', async () => {
  const page = ownerPage;
  const doomed = `Doomed ${suffix}`;
  const doomedId = await createOrganizationByApi(page, doomed);
  await page.goto(`/organization/${doomedId}`);
  await page.getByRole('button', { name: M.deleteButton }).click();
  const dialog = page.getByRole('dialog', { name: M.deleteTitle });
  await expect(dialog.getByTestId('delete-organization-text')).toHaveText(
    `${M.deleteWarning} ${M.cannotBeUndone}`,
  );
  // Cancel keeps it.
  await dialog.getByRole('button', { name: M.cancelButton }).click();
  await expect(dialog).toBeHidden();
  await page.getByRole('button', { name: M.deleteButton }).click();
  await dialog.getByRole('button', { name: M.deleteConfirm, exact: true }).click();
  await expect(page).toHaveURL(/\/organizations$/);
  await expect(page.getByRole('heading', { name: M.listTitle })).toBeVisible();
  await expect(page.getByRole('link', { name: renamed })).toBeVisible();
  await expect(page.getByRole('link', { name: doomed })).toHaveCount(0);
  await page.goto(`/organization/${doomedId}`);
  await expect(page.getByRole('heading', { name: en.errors.notFoundTitle })).toBeVisible();
});

test('the provider administrator reads the invitation in the outbox; others are refused', async ({
  browser,
}) => {
  const page = ownerPage;
  await page.goto('/admin/outbox');
  await expect(page.getByRole('heading', { name: en.errors.unauthorized })).toBeVisible();

  const [context, adminPage] = await newPage(browser);
  try {
    await signIn(adminPage, demoAdmin.email, demoAdmin.password);
    await adminPage.goto('/admin/outbox');
    await expect(adminPage.getByRole('heading', { name: M.outboxTitle })).toBeVisible();
    const rows = adminPage
      .getByRole('row')
      .filter({ hasText: invitee.email })
      .filter({ hasText: `You are invited to join ${orgName}` });
    // The invitation and its resend.
    await expect(rows).toHaveCount(2);
    await rows
      .first()
      .getByRole('link', { name: `You are invited to join ${orgName}` })
      .click();
    await expect(adminPage).toHaveURL(/\/admin\/outbox\/\d+$/);
    await expect(
      adminPage.getByRole('heading', { name: `You are invited to join ${orgName}` }),
    ).toBeVisible();
    await expect(adminPage.getByText(`/organization/${orgId}`)).toBeVisible();
    await adminPage.getByRole('link', { name: M.outboxBack }).click();
    await expect(adminPage).toHaveURL(/\/admin\/outbox$/);
  } finally {
    await context.close();
  }
});
