import type { FeatureRoute } from '../../config/feature-route';
import { paths } from '../../config/paths';
import { lazyPage } from '../../lib/lazy-page';

const ArticlesPage = lazyPage(() => import('./articles-page'));
const ArticleEditorPage = lazyPage(() => import('./article-editor-page'));
const SiteTextsPage = lazyPage(() => import('./site-texts-page'));

/** The console's content (issue 27): articles and the site's texts, for content editors and administrators. */
export const consoleContentRoutes: FeatureRoute[] = [
  { path: paths.adminContent, element: <ArticlesPage />, preload: ArticlesPage.preload },
  { path: paths.adminArticleNew, element: <ArticleEditorPage />, preload: ArticleEditorPage.preload },
  { path: paths.adminArticleRoute, element: <ArticleEditorPage />, preload: ArticleEditorPage.preload },
  { path: paths.adminSiteTexts, element: <SiteTextsPage />, preload: SiteTextsPage.preload },
];
