import { Anchor, Box, Container, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { NEWSLETTER_HIDDEN_PREFIXES } from '@portico/contracts/constants';
import type { SiteLink } from '@portico/contracts/site';
import { HtmlContent } from '../../components/ui/html-content';
import { paths } from '../../config/paths';
import { useBlockLayout } from '../../lib/site-content';
import classes from './layout.module.css';
import { NewsletterForm } from './newsletter-form';

function SiteAnchor({ link }: { link: SiteLink }) {
  return link.external ? (
    <Anchor href={link.url} target="_blank" rel="noopener noreferrer" size="sm">
      {link.title}
    </Anchor>
  ) : (
    <Anchor component={Link} to={link.url} size="sm">
      {link.title}
    </Anchor>
  );
}

/** Bottom banners and footer from the block layout (spec B 1, 2.14). */
export function Footer() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const layout = useBlockLayout().data;
  const showNewsletter = !NEWSLETTER_HIDDEN_PREFIXES.some((p) => pathname.startsWith(p));
  return (
    <>
      {layout && layout.bottomBanners.length > 0 && (
        <Box component="section" aria-label="Steps" py="xl" bg="var(--mantine-color-default-hover)">
          <Container size="xl">
            <SimpleGrid cols={{ base: 1, sm: layout.bottomBanners.length }}>
              {layout.bottomBanners.map((b) => (
                <Stack key={b.title} gap={4}>
                  {b.image_url && <img src={b.image_url} alt="" height={48} />}
                  <Title order={2} size="h4">
                    {b.title}
                  </Title>
                  <HtmlContent html={b.description} />
                </Stack>
              ))}
            </SimpleGrid>
          </Container>
        </Box>
      )}
      <Box component="footer" className={classes.footer} py="xl">
        <Container size="xl">
          <SimpleGrid cols={{ base: 1, sm: 2, md: 4 }} spacing="xl">
            {layout?.footer.map((column) => (
              <Stack key={column.title} gap={6}>
                <Title order={2} size="h5" c="gray.2">
                  {column.title}
                </Title>
                {column.links.map((l) => (
                  <SiteAnchor key={l.url} link={l} />
                ))}
              </Stack>
            ))}
            {showNewsletter && <NewsletterForm />}
          </SimpleGrid>
          <Group justify="space-between" mt="xl" gap="md">
            <Group gap="md">
              {layout?.social.map((l) => (
                <SiteAnchor key={l.url} link={l} />
              ))}
            </Group>
            <Group gap="md">
              <Anchor component={Link} to={paths.privacy} size="sm">
                {t('footer.privacy')}
              </Anchor>
              <Anchor component={Link} to={paths.terms} size="sm">
                {t('footer.terms')}
              </Anchor>
              <Text size="sm">{t('site.copyright')}</Text>
            </Group>
          </Group>
        </Container>
      </Box>
    </>
  );
}
