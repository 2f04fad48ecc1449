import { t } from '../../lib/i18n';

/**
 * Internet Explorer gets this page instead of the app (spec B 2.14). Plain DOM, no Mantine: the
 * point is that nothing else may run in that browser.
 */
export function renderBrowserNotSupported(root: HTMLElement): void {
  const h1 = document.createElement('h1');
  h1.textContent = t('errors.browserNotSupported');
  const p = document.createElement('p');
  p.textContent = t('errors.browserNotSupportedText');
  root.replaceChildren(h1, p);
}

export function isInternetExplorer(userAgent: string): boolean {
  return /MSIE |Trident\//.test(userAgent);
}
