import { Container } from '@mantine/core';
import { RoleGuard } from '../../components/require-login';
import { PageBreadcrumbs } from '../../components/ui/page-breadcrumbs';
import { PageTitle } from '../../components/ui/page-title';
import { paths } from '../../config/paths';
import { useTranslation } from '../../lib/i18n';
import { ContactForm } from './contact-form';

/** /support/contact (spec B 2.1): the contact form on its own. */
export default function ContactPage() {
  const { t } = useTranslation();
  return (
    <RoleGuard>
      <Container size="sm" py="xl">
        <PageBreadcrumbs
          items={[{ title: t('support.title'), to: paths.support }, { title: t('support.contactTitle') }]}
        />
        <PageTitle>{t('support.contactTitle')}</PageTitle>
        <ContactForm />
      </Container>
    </RoleGuard>
  );
}
