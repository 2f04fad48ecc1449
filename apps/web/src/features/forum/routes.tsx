import type { FeatureRoute } from '../../config/feature-route';
import { paths } from '../../config/paths';
import { lazyPage } from '../../lib/lazy-page';

// Each screen is its own chunk; the editor loads on demand inside the topic and create pages.
const ForumPage = lazyPage(() => import('./forum-page'));
const TopicListPage = lazyPage(() => import('./topic-list-page'));
const TopicPage = lazyPage(() => import('./topic-page'));
const CreateTopicPage = lazyPage(() => import('./create-topic-page'));

/** Forum screens (spec B 2.1, 2.13). */
export const forumRoutes: FeatureRoute[] = [
  { path: paths.forum, element: <ForumPage />, preload: ForumPage.preload },
  { path: paths.forumNewest, element: <TopicListPage />, preload: TopicListPage.preload },
  { path: paths.forumPopular, element: <TopicListPage />, preload: TopicListPage.preload },
  { path: paths.forumUnanswered, element: <TopicListPage />, preload: TopicListPage.preload },
  { path: paths.forumRoute, element: <ForumPage />, preload: ForumPage.preload },
  { path: paths.forumTopicRoute, element: <TopicPage />, preload: TopicPage.preload },
  { path: paths.forumCreateTopicRoute, element: <CreateTopicPage />, preload: CreateTopicPage.preload },
];
