import { Container, Title } from '@mantine/core';
import { lazy, Suspense } from 'react';
import { Loading } from '../../components/ui/loading';
import { useTranslation } from '../../lib/i18n';

// The blog's block view is its own chunk: the home page's JavaScript stays as small as before.
const BlogList = lazy(() =>
  import('../../components/content/blog-list').then((m) => ({ default: m.BlogList })),
);

/** The latest blog posts on the home page for signed-in users (spec B 1, 2.2): the block view. */
export function LatestPosts() {
  const { t } = useTranslation();
  return (
    <Container size="xl" py="xl" component="section" aria-labelledby="latest-posts">
      <Title order={2} id="latest-posts" mb="md">
        {t('home.latestPosts')}
      </Title>
      <Suspense fallback={<Loading />}>
        <BlogList mode="block" />
      </Suspense>
    </Container>
  );
}
