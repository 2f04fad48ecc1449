import { Button, Card, Container, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { RoleGuard } from '../../components/require-login';
import { PageTitle } from '../../components/ui/page-title';
import { paths } from '../../config/paths';
import { useTranslation } from '../../lib/i18n';
import { ContactForm } from './contact-form';

/** The forums' page (issue 14, another feature's route). */
const FORUM_PATH = '/forum';

/** /support (spec B 2.9): forum, FAQ and tickets boxes, then the contact form. */
export default function SupportPage() {
  const { t } = useTranslation();
  const boxes = [
    {
      title: t('support.forumBoxTitle'),
      text: t('support.forumBoxText'),
      action: t('support.visitForum'),
      to: FORUM_PATH,
    },
    {
      title: t('support.faqBoxTitle'),
      text: t('support.faqBoxText'),
      action: t('support.viewFaq'),
      to: paths.faq,
    },
    {
      title: t('support.ticketsBoxTitle'),
      text: t('support.ticketsBoxText'),
      action: t('support.raiseTicket'),
      to: paths.supportTicketCreate,
    },
  ];
  return (
    <RoleGuard>
      <Container size="lg" py="xl">
        <PageTitle>{t('support.title')}</PageTitle>
        <SimpleGrid cols={{ base: 1, sm: 3 }} mb="xl">
          {boxes.map((b) => (
            <Card key={b.to} withBorder padding="lg" component="section" aria-label={b.title}>
              <Stack justify="space-between" h="100%">
                <div>
                  <Title order={2} size="h3" mb="xs">
                    {b.title}
                  </Title>
                  <Text size="sm">{b.text}</Text>
                </div>
                <Button component={Link} to={b.to} variant="outline">
                  {b.action}
                </Button>
              </Stack>
            </Card>
          ))}
        </SimpleGrid>
        <Title order={2} mb="md">
          {t('support.contactTitle')}
        </Title>
        <ContactForm />
      </Container>
    </RoleGuard>
  );
}
