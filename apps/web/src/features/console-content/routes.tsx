import type { FeatureRoute } from '../../config/feature-route';
import { paths } from '../../config/paths';
import { lazyPage } from '../../lib/lazy-page';

const ArticlesPage = lazyPage(() => import('./articles-page'));
const ArticleEditorPage = lazyPage(() => import('./article-editor-page'));
const FaqListPage = lazyPage(() => import('./faq-list-page'));
const FaqEditorPage = lazyPage(() => import('./faq-editor-page'));

/** The console's content (issue 27): articles and the FAQ, for content editors and administrators. */
export const consoleContentRoutes: FeatureRoute[] = [
  { path: paths.adminContent, element: <ArticlesPage />, preload: ArticlesPage.preload },
  { path: paths.adminArticleNew, element: <ArticleEditorPage />, preload: ArticleEditorPage.preload },
  { path: paths.adminArticleRoute, element: <ArticleEditorPage />, preload: ArticleEditorPage.preload },
  { path: paths.adminFaq, element: <FaqListPage />, preload: FaqListPage.preload },
  { path: paths.adminFaqNew, element: <FaqEditorPage />, preload: FaqEditorPage.preload },
  { path: paths.adminFaqQuestionRoute, element: <FaqEditorPage />, preload: FaqEditorPage.preload },
];
