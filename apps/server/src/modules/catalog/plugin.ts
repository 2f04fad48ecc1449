import type { Locale } from '@portico/contracts/locales';
import { en } from '@portico/contracts/messages';
import path from 'node:path';
import fp from 'fastify-plugin';
import { serveContentImages } from '../../lib/content-images.ts';
import { HttpError } from '../../lib/errors.ts';
import { cacheAnswers } from '../../plugins/http-cache.ts';
import { decorateChatBotOrigins } from './chat-bots.ts';
import { documentationRoutes } from './documentation-routes.ts';
import { documentationTranslationRoutes } from './documentation-translations.ts';
import { documentationFirstScreen, type FirstScreen } from './first-screen.ts';
import { importRoutes } from './import-routes.ts';
import { apiDraftRoutes } from './api-draft-routes.ts';
import { consoleChangelogRoutes } from './console-changelog.ts';
import { consoleComparisonRoutes } from './console-comparison.ts';
import { consolePlanRoutes } from './console-plans.ts';
import { consoleProductRoutes } from './console-products.ts';
import { generatedProductImage } from './product-info.ts';
import { productRoutes } from './product-routes.ts';
import { findProduct } from './repo.ts';

/**
 * The catalog (README.md): API products, categories, comparison tables, changelogs and API
 * documentations as JSON:API, the OpenAPI documents and their reference index. Public reads, and
 * one write: the administrators' import of a document (import-routes.ts, like the import-api
 * command); other content comes from content/.
 */
export default fp(
  async (app) => {
    decorateChatBotOrigins(app);
    // The documentation page's first screen in its HTML (plugins/web-app.ts, decision 043).
    app.decorate('documentationFirstScreen', (pathname: string, id: string, search: string, locale: Locale) =>
      documentationFirstScreen(app.db, pathname, id, search, locale),
    );
    await app.register(async (scope) => {
      // Public reads that depend only on the catalog's tables: answers come from memory until a
      // catalog table changes (decision 018), signed-in ones per user (decision 028).
      // Products and documentations show their translations (decision 063): a translation's
      // change counts too.
      cacheAnswers(scope, { domains: ['catalog', 'translations'], perUser: true });
      await productRoutes(scope);
      await documentationRoutes(scope);

      // Product images and feature icons of the content folder (content/catalog/images).
      serveContentImages(scope, '/catalog/images/', path.join(app.config.contentDir, 'catalog', 'images'));

      // The generated image of a product created by import-api without one (product-info.ts).
      scope.get<{ Params: { name: string } }>('/catalog/generated-images/:name', async (request, reply) => {
        const alias = /^([a-z0-9][a-z0-9-]{0,126})\.svg$/.exec(request.params.name)?.[1];
        const product = alias ? await findProduct(app.db, alias) : undefined;
        if (!product) throw new HttpError(404, en.api.notFound);
        return reply
          .type('image/svg+xml')
          .header('Cache-Control', 'public, max-age=3600')
          .header('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'")
          .send(generatedProductImage(product.title));
      });
    });
    // Outside the cached scope: a write, whose triggers bump the catalog's counter (decision 018).
    await importRoutes(app);
    // The console's API versions: drafts, publication (api-draft-routes.ts, decision 047).
    await apiDraftRoutes(app);
    // The console's product editing: order, texts, deprecation, retirement (console-products.ts).
    await consoleProductRoutes(app);
    // The console's changelog entries of a product (console-changelog.ts).
    await consoleChangelogRoutes(app);
    // The console's comparison tables (console-comparison.ts).
    await consoleComparisonRoutes(app);
    // The plans of a product's API documentations (console-plans.ts).
    await consolePlanRoutes(app);
    // A documentation's translations: title, description, tags' descriptions (decision 063).
    documentationTranslationRoutes(app);
  },
  { name: 'catalog', dependencies: ['services', 'http-cache'] },
);

declare module 'fastify' {
  interface FastifyInstance {
    documentationFirstScreen(
      pathname: string,
      id: string,
      /** The query of the page's address: `operation` and `product`. */
      search: string,
      /** The page's language (its `/de/` prefix): labels, links and the translated texts. */
      locale: Locale,
    ): Promise<FirstScreen | undefined>;
  }
}
