import type { Locator, Page } from '@playwright/test';
import { format } from '@portico/contracts/format';
import { en } from '@portico/contracts/messages';
import { expectNoViolations } from '../support/axe.ts';
import { signIn } from '../support/session.ts';
import { expect, test } from '../support/traffic.ts';

/**
 * Images in the console's Markdown editors (issue 27): a content editor's file that is not an
 * image is refused with the server's message; a real one is uploaded with its progress and a
 * required description, goes into a new page's text at the cursor, shows in the preview and on the
 * published page. The image cannot be deleted while the page shows it (the picker says where);
 * once the page is deleted, the image is deleted too, and its address answers 404.
 */
const M = en.console.images.picker;
const P = en.console.pages;
// A demo account of content/users.yaml (README 'Demo accounts').
const editorAccount = { email: 'content.editor@portico.local', password: 'ContentEditor#2026' };
// A 40 × 30 grey PNG.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAACgAAAAeCAAAAAB7tgMBAAAAGElEQVR4nGNoIBIwjCocVTiqcFThYFYIAME9WB/23J5xAAAAAElFTkSuQmCC',
  'base64',
);

async function declineCookies(page: Page): Promise<void> {
  await page
    .getByRole('dialog', { name: en.cookies.settingsTitle })
    .getByRole('button', { name: en.cookies.decline })
    .click();
}

/** Whether the image has arrived and decoded (a broken one has no natural width). */
async function expectLoaded(image: Locator): Promise<void> {
  await expect(image).toBeVisible();
  await expect.poll(() => image.evaluate((el) => (el as HTMLImageElement).naturalWidth)).toBe(40);
}

test('a content editor uploads an image into a page: refused when it is not one, in the preview and on the published page', async ({
  page,
  browser,
}) => {
  test.setTimeout(90_000);
  const stamp = Date.now();
  const title = `Walrus diagrams ${stamp}`;
  const address = `/legal/walrus-diagrams-${stamp}`;
  const alt = `A walrus diagram ${stamp}`;
  const fileName = `walrus-${stamp}.png`;
  await signIn(page, editorAccount.email, editorAccount.password);
  await declineCookies(page);
  await page.goto('/admin/content/pages/new');
  await expect(page.getByRole('heading', { level: 1, name: P.editor.createTitle })).toBeVisible();
  await page.getByRole('textbox', { name: P.editor.titleLabel, exact: true }).fill(title);
  await page.getByRole('textbox', { name: P.editor.pathLabel, exact: true }).fill(address);
  const body = page.getByLabel(P.editor.bodyLabel);
  await body.fill('Before the image.\n\nAfter the image.');
  // The cursor between the two paragraphs: the image goes there.
  await body.evaluate((el) => {
    const area = el as HTMLTextAreaElement;
    area.focus();
    area.setSelectionRange('Before the image.\n\n'.length, 'Before the image.\n\n'.length);
  });

  await page.getByRole('button', { name: M.open }).click();
  const dialog = page.getByRole('dialog', { name: M.title });
  await expect(dialog).toBeVisible();
  const fileInput = dialog.locator('input[type="file"]');

  // An HTML page called .png: the server looks at the bytes and says why it refuses it.
  await fileInput.setInputFiles({
    name: 'walrus.png',
    mimeType: 'image/png',
    buffer: Buffer.from('<!doctype html><title>not an image</title>'),
  });
  await expect(dialog.getByRole('alert')).toContainText(en.console.images.errors.notAnImage);

  // No image yet, no description: each is asked for.
  await dialog.getByRole('button', { name: M.insert }).click();
  await expect(dialog.getByRole('alert').filter({ hasText: M.noImage })).toBeVisible();

  await fileInput.setInputFiles({ name: fileName, mimeType: 'image/png', buffer: PNG });
  await expect(dialog.getByText(M.uploadedOne.replace('{{name}}', fileName))).toBeVisible();
  await dialog.getByRole('button', { name: M.insert }).click();
  await expect(dialog.getByText(M.altRequired)).toBeVisible();
  await expect(dialog.getByRole('textbox', { name: M.altLabel })).toBeFocused();
  await dialog.getByRole('textbox', { name: M.altLabel }).fill(alt);
  await expectNoViolations(page, '/admin/content/pages/new (insert image)');

  // The uploaded one is listed for later use, newest first.
  await dialog.getByRole('tab', { name: M.uploaded }).click();
  await expect(dialog.getByRole('radio').first()).toBeChecked();
  await dialog.getByRole('button', { name: M.insert }).click();
  await expect(dialog).toBeHidden();

  // In the text at the cursor, and the cursor after it.
  await expect(body).toHaveValue(
    new RegExp(
      `^Before the image\\.\\n\\n!\\[${alt}\\]\\(/images/console/[0-9a-f-]{36}\\.png\\)After the image\\.$`,
    ),
  );
  await expect(body).toBeFocused();
  const url = /\((\/images\/console\/[^)]+)\)/.exec(await body.inputValue())![1]!;

  await page.getByRole('tab', { name: P.editor.preview }).click();
  await expectLoaded(page.getByTestId('page-preview').getByRole('img', { name: alt }));
  await page.getByRole('tab', { name: P.editor.write }).click();
  await page.getByRole('radio', { name: P.list.states.published }).check();
  await page.getByRole('button', { name: P.editor.save }).click();
  await expect(
    page.getByRole('status').filter({ hasText: P.editor.saved.replace('{{version}}', '1') }),
  ).toBeVisible();

  const visitorContext = await browser.newContext();
  try {
    const visitor = await visitorContext.newPage();
    await visitor.goto(address);
    await declineCookies(visitor);
    await expect(visitor.getByRole('heading', { level: 1, name: title })).toBeVisible();
    await expectLoaded(visitor.getByRole('main').getByRole('img', { name: alt }));
    const served = await visitor.request.get(url);
    expect(served.status()).toBe(200);
    expect(served.headers()['content-type']).toBe('image/png');
    expect(served.headers()['x-content-type-options']).toBe('nosniff');

    // The image cannot be deleted while the page shows it: the picker says where.
    const deleteImage = async () => {
      await page.getByRole('button', { name: M.open }).click();
      const picker = page.getByRole('dialog', { name: M.title });
      await picker.getByRole('tab', { name: M.uploaded }).click();
      page.once('dialog', (d) => {
        expect(d.message()).toBe(format(M.deleteConfirm, { name: fileName }));
        void d.accept();
      });
      await picker.getByRole('button', { name: format(M.deleteLabel, { name: fileName }) }).click();
      return picker;
    };
    const refused = await deleteImage();
    await expect(refused.getByTestId('image-delete-refused')).toHaveText(
      format(en.console.images.errors.inUse, {
        uses: format(en.console.images.errors.usedIn.page, { title }),
      }),
    );
    await expectNoViolations(page, 'insert image: a delete refused');
    await refused.getByRole('button', { name: M.cancel }).click();
    expect((await visitor.request.get(url)).status()).toBe(200);

    // Clean up: the page goes (the demo content stays as it was), then the image.
    page.once('dialog', (d) => void d.accept());
    await page.getByRole('button', { name: P.editor.delete }).click();
    await expect(page).toHaveURL(/\/admin\/content\/pages$/);
    expect((await visitor.request.get(`${address}?_format=json`)).status()).toBe(404);
    await page.goto('/admin/content/pages/new');
    const picker = await deleteImage();
    await expect(
      picker.getByRole('status').filter({ hasText: format(M.deleted, { name: fileName }) }),
    ).toBeVisible();
    await expect(picker.getByRole('button', { name: format(M.deleteLabel, { name: fileName }) })).toHaveCount(
      0,
    );
    expect((await visitor.request.get(url)).status()).toBe(404);
  } finally {
    await visitorContext.close();
  }
});
