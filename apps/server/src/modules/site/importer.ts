import { parse } from 'yaml';
import { blockLayoutSchema, cookiesConsentSchema } from '@portico/contracts/site';
import type { ContentImporter } from '../../content/content-importer.ts';
import { siteContentRepo } from './site-content.ts';

/**
 * content/site/*.yaml: the block layout and the cookie consent texts. These are the provider's
 * own texts, not user data, so a start with changed files replaces them (validated first: a
 * broken file stops the start with zod's message instead of breaking the footer) — unless the
 * document was saved in the provider console since: the browser's version wins, and
 * `export-content` writes it back to the file (README.md 'Console').
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
      if (await repo.editedInConsole(key)) {
        log.info({ file: `content/${file}` }, 'kept the version saved in the provider console');
        continue;
      }
      const parsed = schema.safeParse(parse(text));
      if (!parsed.success) throw new Error(`content/${file} is invalid: ${parsed.error.message}`);
      await repo.put(key, parsed.data);
    }
  },
};
