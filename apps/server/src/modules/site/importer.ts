import { parse } from 'yaml';
import { blockLayoutSchema, cookiesConsentSchema } from '@portico/contracts/site';
import type { ContentImporter } from '../../content/content-importer.ts';
import { siteContentRepo } from './site-content.ts';
import { importSiteTranslations } from './translations.ts';

/**
 * content/site/*.yaml: the block layout and the cookie consent texts. These are the provider's
 * own texts, not user data, so a start with changed files replaces them (validated first: a
 * broken file stops the start with zod's message instead of breaking the footer) — unless the
 * document was saved in the provider console since: the browser's version wins, and
 * `export-content` writes it back to the file (README.md 'Console'). A file's optional
 * `translations: { de: { <JSON pointer>: text } }` block is the document's translations (decision
 * 064), written unless that language's translation was saved in the console.
 */
export const siteImporter: ContentImporter = {
  name: 'site',
  async run({ db, read, log }) {
    const repo = siteContentRepo(db);
    const files = [
      ['block-layout', 'site/block-layout.yaml', blockLayoutSchema],
      ['cookies-consent', 'site/cookies-consent.yaml', cookiesConsentSchema],
    ] as const;
    for (const [key, file, schema] of files) {
      const text = read(file);
      if (text === undefined) continue;
      const { translations, ...document } = (parse(text) ?? {}) as Record<string, unknown>;
      if (await repo.editedInConsole(key)) {
        log.info({ file: `content/${file}` }, 'kept the version saved in the provider console');
      } else {
        const parsed = schema.safeParse(document);
        if (!parsed.success) throw new Error(`content/${file} is invalid: ${parsed.error.message}`);
        await repo.put(key, parsed.data);
      }
      // Over the live document (the console's, when it was saved there): stale pointers are dropped.
      if (translations !== undefined) {
        await importSiteTranslations(db, key, schema.parse(await repo.get(key)), translations);
      }
    }
  },
};
