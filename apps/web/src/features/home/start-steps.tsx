import { Button, Container, Paper, SimpleGrid, Text, ThemeIcon, Title } from '@mantine/core';
import { useTranslation } from '../../lib/i18n';
import { Link } from 'react-router';
import { paths } from '../../config/paths';

/** The 3-step START section of the home page for signed-in users (spec B 2.2). */
export function StartSteps() {
  const { t } = useTranslation();
  const steps = [
    {
      title: t('home.step1Title'),
      text: t('home.step1Text'),
      to: paths.organizations,
      action: t('home.step1Action'),
    },
    {
      title: t('home.step2Title'),
      text: t('home.step2Text'),
      to: paths.apiProducts,
      action: t('home.step2Action'),
    },
    {
      title: t('home.step3Title'),
      text: t('home.step3Text'),
      to: paths.started,
      action: t('home.step3Action'),
    },
  ];
  return (
    <Container size="xl" py="xl" component="section" aria-labelledby="start-steps">
      <Title order={2} id="start-steps" mb="md">
        {t('home.startTitle')}
      </Title>
      <SimpleGrid cols={{ base: 1, md: 3 }}>
        {steps.map((s, i) => (
          <Paper key={s.title} withBorder p="lg">
            <ThemeIcon radius="xl" size="lg" mb="sm" aria-hidden>
              {i + 1}
            </ThemeIcon>
            <Title order={3} size="h4">
              {s.title}
            </Title>
            <Text size="sm" my="sm">
              {s.text}
            </Text>
            <Button component={Link} to={s.to} variant="light" size="sm">
              {s.action}
            </Button>
          </Paper>
        ))}
      </SimpleGrid>
    </Container>
  );
}
