import {
  Alert,
  Anchor,
  Container,
  Paper,
  Text,
  ThemeIcon,
  Timeline,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { IconCheck, IconKey } from '@tabler/icons-react';
import { Link } from 'react-router';
import type { GettingStartedBlock } from '@portico/contracts/site';
import { RoleGuard } from '../../components/require-login';
import { HtmlContent } from '../../components/ui/html-content';
import { Loading } from '../../components/ui/loading';
import { PageBreadcrumbs } from '../../components/ui/page-breadcrumbs';
import { PageTitle } from '../../components/ui/page-title';
import { paths } from '../../config/paths';
import { useTranslation } from '../../lib/i18n';
import { langOf } from '../../components/content/translation';
import { useBlockLayout } from '../../lib/site-content';

function BlockLink({ link }: { link: NonNullable<GettingStartedBlock['link']> }) {
  return link.external ? (
    <Anchor href={link.url} target="_blank" rel="noopener noreferrer" fw={700} size="sm">
      {link.title}
    </Anchor>
  ) : (
    <Anchor component={Link} to={link.url} fw={700} size="sm">
      {link.title}
    </Anchor>
  );
}

/**
 * /started (spec B 2.3): numbered timeline blocks (title, description, link) from the block
 * layout; the last one is shown as the authorization block; then 'ALL DONE - …'.
 */
export default function StartedPage() {
  const { t } = useTranslation();
  const layout = useBlockLayout();
  const blocks = layout.data?.gettingStarted ?? [];
  const steps = blocks.slice(0, -1);
  const auth = blocks.at(-1);
  // The provider's texts in the page's language, or marked as the default language's (decision 064).
  const lang = langOf(layout.data?.translation);
  return (
    <RoleGuard>
      <Container size="md" py="xl">
        <PageBreadcrumbs
          items={[{ title: t('content.home'), to: paths.home }, { title: t('content.startedTitle') }]}
        />
        <PageTitle>{t('content.startedTitle')}</PageTitle>
        {layout.isPending ? (
          <Loading />
        ) : (
          <>
            <Timeline active={blocks.length} bulletSize={32} lineWidth={2} data-testid="started-timeline">
              {steps.map((b, i) => (
                <Timeline.Item
                  key={b.title}
                  bullet={
                    <Text fw={700} size="sm" aria-hidden>
                      {i + 1}
                    </Text>
                  }
                  title={
                    <Title order={2} size="h4">
                      <VisuallyHidden>{`${t('content.step', { number: i + 1 })}: `}</VisuallyHidden>
                      <span lang={lang}>{b.title}</span>
                    </Title>
                  }
                >
                  <div lang={lang}>
                    <HtmlContent html={b.description} fz="sm" />
                    {b.link && <BlockLink link={b.link} />}
                  </div>
                </Timeline.Item>
              ))}
              {auth && (
                <Timeline.Item
                  bullet={<IconKey size={16} aria-hidden />}
                  title={
                    <Title order={2} size="h4" lang={lang}>
                      {auth.title}
                    </Title>
                  }
                >
                  <Paper withBorder p="md" radius="md" data-testid="authorization-block">
                    <Text size="xs" tt="uppercase" fw={700} c="dimmed" mb={4}>
                      {t('content.authorization')}
                    </Text>
                    <div lang={lang}>
                      <HtmlContent html={auth.description} fz="sm" />
                      {auth.link && <BlockLink link={auth.link} />}
                    </div>
                  </Paper>
                </Timeline.Item>
              )}
            </Timeline>
            <Alert
              mt="xl"
              color="green"
              icon={
                <ThemeIcon color="green" radius="xl" size="sm">
                  <IconCheck size={14} aria-hidden />
                </ThemeIcon>
              }
            >
              <Text fw={700}>{t('content.allDone')}</Text>
            </Alert>
          </>
        )}
      </Container>
    </RoleGuard>
  );
}
