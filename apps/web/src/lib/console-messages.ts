import enConsole from '../locales/en/console.json';
import { registerTranslations } from './i18n';

/**
 * The provider console's English (src/locales/en/console.json: the catalogue's `console` and
 * `apiImport` areas), in a chunk of its own that only the console's pages and the header's link
 * to the console load (lib/i18n.ts loadConsoleMessages); other languages' files are fetched by
 * lib/i18n.ts. The audit log's action labels are contracts' audit-actions (not looked up by key).
 */
registerTranslations('en', enConsole);
