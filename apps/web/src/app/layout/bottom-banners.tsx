import { Box, Container, SimpleGrid, Stack, Title, Typography } from '@mantine/core';
import type { BottomBanner } from '@portico/contracts/site';
import { t } from '../../lib/i18n';

/**
 * The bottom banners of the block layout (spec B 2.14: image and HTML body). The body comes
 * sanitized from the server, so this part of the home page needs no DOMPurify (decision 018).
 * `lang`: the default language's, when the layout has no translation into the page's (decision 064).
 */
export default function BottomBanners({ banners, lang }: { banners: BottomBanner[]; lang?: string }) {
  return (
    <Box component="section" aria-label={t('layout.steps')} py="xl" bg="var(--mantine-color-default-hover)">
      <Container size="xl">
        <SimpleGrid cols={{ base: 1, sm: banners.length }}>
          {banners.map((b) => (
            <Stack key={b.title} gap={4} lang={lang}>
              {b.image_url && <img src={b.image_url} alt="" height={48} />}
              <Title order={2} size="h4">
                {b.title}
              </Title>
              {/* Sanitized by the server (GET /block-layout, lib/content-html.ts), as the catalog's texts. */}
              <Typography dangerouslySetInnerHTML={{ __html: b.description }} />
            </Stack>
          ))}
        </SimpleGrid>
      </Container>
    </Box>
  );
}
