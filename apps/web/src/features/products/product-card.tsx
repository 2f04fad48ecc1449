import { Badge, Card, Group, Image, Text, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import {
  CARD_DESCRIPTION_MAX,
  CARD_DESCRIPTION_MAX_MEDIUM,
  CARD_MEDIUM_MAX_PX,
  CARD_MEDIUM_MIN_PX,
} from '@portico/contracts/constants';
import { useTranslation } from '../../lib/i18n';
import { Link } from 'react-router';
import { paths } from '../../config/paths';
import type { Product } from './api-products';
import classes from './products.module.css';
import { aliasSlug, cutText, cutTitleWords, htmlToText } from './text';

/**
 * A product in the list (spec B 9): image, title (long words cut), description cut to 100
 * characters, or 50 on screens between 767 and 1590 px, label and version.
 */
export function ProductCard({
  product,
  image,
}: {
  product: Product;
  image: { url: string; alt: string } | null;
}) {
  const { t } = useTranslation();
  const medium = useMediaQuery(
    `(min-width: ${CARD_MEDIUM_MIN_PX}px) and (max-width: ${CARD_MEDIUM_MAX_PX}px)`,
  );
  const a = product.attributes;
  const max = medium ? CARD_DESCRIPTION_MAX_MEDIUM : CARD_DESCRIPTION_MAX;
  const to = paths.apiProduct(aliasSlug(a.path?.alias) || product.id);
  return (
    <Card withBorder padding="lg" component="article" data-testid="product-card" h="100%">
      {image && (
        <Card.Section>
          <Image src={image.url} alt={image.alt} h={140} fit="contain" bg="gray.0" p="sm" />
        </Card.Section>
      )}
      <Title order={2} size="h4" mt="md">
        <Link to={to} className={classes.cardLink}>
          {cutTitleWords(a.title)}
        </Link>
      </Title>
      <Text size="sm" c="dimmed" mt="xs" style={{ flexGrow: 1 }}>
        {cutText(htmlToText(a.body?.processed), max)}
      </Text>
      <Group gap="xs" mt="md">
        {a.field_label && <Badge variant="light">{a.field_label}</Badge>}
        {a.field_version && (
          <Text size="xs" c="dimmed">
            {t('products.version', { version: a.field_version })}
          </Text>
        )}
      </Group>
    </Card>
  );
}
