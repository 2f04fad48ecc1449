import { useQuery } from '@tanstack/react-query';
import { useLocation } from 'react-router';
import { CloudDocument } from '../../components/content/cloud-document';
import { pdfLink, useCloudDocsConfig } from '../../components/content/cloud-docs';
import { ContentPage } from '../../components/content/content-page';
import { NotFound } from '../../components/not-found';
import { readerLanguage, type TranslationMarker } from '../../components/content/translation';
import { Loading } from '../../components/ui/loading';
import { paths } from '../../config/paths';
import { apiRequest } from '../../lib/api-client';
import { useTranslation } from '../../lib/i18n';
import { useAppStore } from '../../lib/store';

interface BasicPage {
  title: string;
  body: string;
  image?: { url: string; alt?: string } | null;
  author?: { name: string } | null;
  created?: string;
  field_google_drive_id?: string | null;
  field_scrollspy_visible?: boolean;
  statusCode?: number;
  translation?: TranslationMarker;
}

/**
 * The catch-all route /{page} (spec B 2.1, 2.8, 4): fetches `{route}?_format=json`; shown when
 * the status is 200 and there is HTML or a drive id, otherwise the 404 page. Refetched when the
 * route or token changes. A page with a drive id shows the cloud document and its PDF link.
 */
export default function BasicPagePage() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const token = useAppStore((s) => s.applicationUser.token);
  const page = useQuery({
    queryKey: ['basic-page', pathname, token],
    queryFn: () =>
      apiRequest<BasicPage>(pathname, { query: { _format: 'json', ...readerLanguage() }, format: 'json' }),
    retry: false,
  });
  const driveId = page.data?.field_google_drive_id ?? null;
  const cloud = useCloudDocsConfig(Boolean(driveId)).data;
  if (page.isPending) return <Loading />;
  const p = page.data;
  if (page.isError || !p || (p.statusCode !== undefined && p.statusCode !== 200) || (!p.body && !driveId)) {
    return <NotFound />;
  }
  return (
    <ContentPage
      title={p.title}
      html={p.body}
      image={p.image}
      breadcrumb={[{ title: t('content.home'), to: paths.home }, { title: p.title }]}
      scrollspy={Boolean(p.field_scrollspy_visible)}
      pdfName={pathname.split('/').filter(Boolean).pop() || 'page'}
      pdfLink={driveId && cloud?.enabled ? pdfLink(cloud.pdfUrl, driveId) : null}
      translation={p.translation}
    >
      {driveId && <CloudDocument fileId={driveId} />}
    </ContentPage>
  );
}
