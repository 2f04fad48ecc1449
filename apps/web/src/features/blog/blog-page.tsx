import { Container } from '@mantine/core';
import { useEffect } from 'react';
import { useLocation } from 'react-router';
import { BlogList } from '../../components/content/blog-list';
import { RequireLogin } from '../../components/require-login';
import { PageBreadcrumbs } from '../../components/ui/page-breadcrumbs';
import { PageTitle } from '../../components/ui/page-title';
import { paths } from '../../config/paths';
import { useTranslation } from '../../lib/i18n';

/**
 * /blog (and /news, which redirects here) and the internal blog: every URL containing 'internal'
 * is for the internal developers group only (modules/content/README.md 'Internal blog'): visitors
 * must log in, and the server gives internal articles to the group's members only.
 */
export default function BlogPage() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const internal = pathname.toLowerCase().includes('internal');
  // Spec B 2.4: the blog scrolls to the top on mount.
  // (Braces: Chromium's scrollTo returns a promise, which React would take for a cleanup.)
  useEffect(() => {
    window.scrollTo({ top: 0 });
  }, []);
  const title = internal ? t('content.internalBlogTitle') : t('content.blogTitle');
  const page = (
    <Container size="xl" py="xl">
      <PageBreadcrumbs items={[{ title: t('content.home'), to: paths.home }, { title }]} />
      <PageTitle>{title}</PageTitle>
      <BlogList mode="page" internal={internal} />
    </Container>
  );
  return internal ? <RequireLogin>{page}</RequireLogin> : page;
}
