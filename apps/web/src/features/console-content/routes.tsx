import type { FeatureRoute } from '../../config/feature-route';
import { paths } from '../../config/paths';
import { lazyPage } from '../../lib/lazy-page';

const ArticlesPage = lazyPage(() => import('./articles-page'));
const ArticleEditorPage = lazyPage(() => import('./article-editor-page'));
const PagesPage = lazyPage(() => import('./pages-page'));
const PageEditorPage = lazyPage(() => import('./page-editor-page'));
const FaqListPage = lazyPage(() => import('./faq-list-page'));
const FaqEditorPage = lazyPage(() => import('./faq-editor-page'));
const CategoryEditorPage = lazyPage(() => import('./category-editor-page'));
const NewsCategoriesPage = lazyPage(() => import('./news-categories-page'));
const StoriesPage = lazyPage(() => import('./stories-page'));
const StoryEditorPage = lazyPage(() => import('./story-editor-page'));
const SiteTextsPage = lazyPage(() => import('./site-texts-page'));

/** The console's content (issue 27): articles and their categories, the FAQ and its categories, basic pages, the Quick Start stories and the site's texts, for content editors and administrators. */
export const consoleContentRoutes: FeatureRoute[] = [
  { path: paths.adminContent, element: <ArticlesPage />, preload: ArticlesPage.preload },
  { path: paths.adminArticleNew, element: <ArticleEditorPage />, preload: ArticleEditorPage.preload },
  { path: paths.adminArticleRoute, element: <ArticleEditorPage />, preload: ArticleEditorPage.preload },
  { path: paths.adminFaq, element: <FaqListPage />, preload: FaqListPage.preload },
  { path: paths.adminFaqNew, element: <FaqEditorPage />, preload: FaqEditorPage.preload },
  { path: paths.adminFaqQuestionRoute, element: <FaqEditorPage />, preload: FaqEditorPage.preload },
  {
    path: paths.adminFaqCategoryRoute,
    element: <CategoryEditorPage kind="faq" />,
    preload: CategoryEditorPage.preload,
  },
  { path: paths.adminNewsCategories, element: <NewsCategoriesPage />, preload: NewsCategoriesPage.preload },
  {
    path: paths.adminNewsCategoryRoute,
    element: <CategoryEditorPage kind="news" />,
    preload: CategoryEditorPage.preload,
  },
  { path: paths.adminPages, element: <PagesPage />, preload: PagesPage.preload },
  { path: paths.adminPageNew, element: <PageEditorPage />, preload: PageEditorPage.preload },
  { path: paths.adminPageRoute, element: <PageEditorPage />, preload: PageEditorPage.preload },
  { path: paths.adminQuickstart, element: <StoriesPage />, preload: StoriesPage.preload },
  { path: paths.adminStoryNew, element: <StoryEditorPage />, preload: StoryEditorPage.preload },
  { path: paths.adminStoryRoute, element: <StoryEditorPage />, preload: StoryEditorPage.preload },
  { path: paths.adminSiteTexts, element: <SiteTextsPage />, preload: SiteTextsPage.preload },
];
