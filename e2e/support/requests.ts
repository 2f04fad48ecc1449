import type { Page } from '@playwright/test';

/** The paths of every request the page makes from now on, in order (filled as they leave). */
export function requestedPaths(page: Page): string[] {
  const paths: string[] = [];
  page.on('request', (request) => paths.push(new URL(request.url()).pathname));
  return paths;
}
