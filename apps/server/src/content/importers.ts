import { usersImporter } from '../modules/identity/importer.ts';
import { sandboxUsersImporter } from '../authz-server/sandbox-users.ts';
import { siteImporter } from '../modules/site/importer.ts';
import { catalogImporter } from '../modules/catalog/importer.ts';
import { pagesImporter } from '../modules/pages/importer.ts';
import { contentImporter } from '../modules/content/importer.ts';
import { demoOrganizationsImporter } from '../modules/applications/demo-importer.ts';
import { forumImporter } from '../modules/forum/importer.ts';
import { quickstartImporter } from '../modules/quickstart/importer.ts';
import { consoleImagesImporter } from '../modules/console-images/importer.ts';
import type { ContentImporter } from './content-importer.ts';

/**
 * Importers run in this order on start (users first: later content may name its authors; the demo
 * organizations last: they name accounts and products).
 */
export const importers: ContentImporter[] = [
  usersImporter,
  pagesImporter,
  contentImporter,
  consoleImagesImporter,
  sandboxUsersImporter,
  siteImporter,
  catalogImporter,
  demoOrganizationsImporter,
  forumImporter,
  quickstartImporter,
];
