import type { FeatureRoute } from '../../config/feature-route';
import { paths } from '../../config/paths';
import { lazyPage } from '../../lib/lazy-page';

const BlogPage = lazyPage(() => import('./blog-page'));
const ArticlePage = lazyPage(() => import('./article-page'));

/** The blog, the internal blog and article pages (spec B 2.4, 2.8); /news redirects here (app/routes.tsx). */
export const blogRoutes: FeatureRoute[] = [
  { path: paths.blog, element: <BlogPage />, preload: BlogPage.preload },
  { path: paths.internalBlog, element: <BlogPage />, preload: BlogPage.preload },
  { path: '/blog/:articleSlug', element: <ArticlePage />, preload: ArticlePage.preload },
];
