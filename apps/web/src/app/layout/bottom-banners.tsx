import { Box, Container, SimpleGrid, Stack, Title } from '@mantine/core';
import type { BottomBanner } from '@portico/contracts/site';
import { HtmlContent } from '../../components/ui/html-content';

/** The bottom banners of the block layout (spec B 2.14: image and HTML body). */
export default function BottomBanners({ banners }: { banners: BottomBanner[] }) {
  return (
    <Box component="section" aria-label="Steps" py="xl" bg="var(--mantine-color-default-hover)">
      <Container size="xl">
        <SimpleGrid cols={{ base: 1, sm: banners.length }}>
          {banners.map((b) => (
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
  );
}
