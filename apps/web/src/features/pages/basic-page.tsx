import { Container, Image } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useLocation } from 'react-router';
import { NotFound } from '../../components/not-found';
import { HtmlContent } from '../../components/ui/html-content';
import { Loading } from '../../components/ui/loading';
import { PageTitle } from '../../components/ui/page-title';
import { apiRequest } from '../../lib/api-client';
import { useAppStore } from '../../lib/store';

interface BasicPage {
  title: string;
  body: string;
  image?: { url: string; alt?: string } | null;
}

/**
 * The catch-all route /{page} (spec B 2.1, 4): fetches `{route}?_format=json`; shown when the
 * status is 200 and there is HTML, otherwise the 404 page. Refetched when the route or token changes.
 */
export default function BasicPagePage() {
  const { pathname } = useLocation();
  const token = useAppStore((s) => s.applicationUser.token);
  const [imageFailed, setImageFailed] = useState(false);
  const page = useQuery({
    queryKey: ['basic-page', pathname, token],
    queryFn: () => apiRequest<BasicPage>(pathname, { query: { _format: 'json' }, format: 'json' }),
    retry: false,
  });
  if (page.isPending) return <Loading />;
  if (page.isError || !page.data?.body) return <NotFound />;
  return (
    <Container size="md" py="xl">
      <PageTitle>{page.data.title}</PageTitle>
      {page.data.image && !imageFailed && (
        <Image
          src={page.data.image.url}
          alt={page.data.image.alt ?? ''}
          mb="md"
          radius="md"
          onError={() => setImageFailed(true)}
        />
      )}
      <HtmlContent html={page.data.body} />
    </Container>
  );
}
