import { Button, Container, Group } from '@mantine/core';
import { IconFileTypePdf } from '@tabler/icons-react';
import { useParams } from 'react-router';
import { CloudDocument } from '../../components/content/cloud-document';
import { pdfLink, useCloudDocsConfig } from '../../components/content/cloud-docs';
import { PageBreadcrumbs } from '../../components/ui/page-breadcrumbs';
import { PageTitle } from '../../components/ui/page-title';
import { paths } from '../../config/paths';
import { useTranslation } from '../../lib/i18n';

/** /google-doc/{fileId} (spec B 2.1, 2.8): the cloud document with its PDF download link. */
export default function GoogleDocPage() {
  const { t } = useTranslation();
  const { fileId = '' } = useParams();
  const config = useCloudDocsConfig().data;
  return (
    <Container size="lg" py="xl">
      <PageBreadcrumbs
        items={[{ title: t('content.home'), to: paths.home }, { title: t('content.cloudDocTitle') }]}
      />
      <Group justify="space-between" align="start">
        <PageTitle>{t('content.cloudDocTitle')}</PageTitle>
        {config?.enabled && (
          <Button
            component="a"
            href={pdfLink(config.pdfUrl, fileId)}
            target="_blank"
            rel="noopener noreferrer"
            variant="light"
            leftSection={<IconFileTypePdf size={16} aria-hidden />}
          >
            {t('content.downloadPdf')}
          </Button>
        )}
      </Group>
      <CloudDocument fileId={fileId} />
    </Container>
  );
}
