import { Group, Image, Text } from '@mantine/core';
import { DEFAULT_AUTHOR_IMAGE } from './default-author';

/** An author's picture and name; a picture that fails to load falls back to the default one (spec B 8). */
export function AuthorAvatar({
  name,
  imageUrl,
  size = 32,
}: {
  name: string;
  imageUrl?: string | null;
  size?: number;
}) {
  return (
    <Group gap="xs" wrap="nowrap">
      <Image
        src={imageUrl || DEFAULT_AUTHOR_IMAGE}
        fallbackSrc={DEFAULT_AUTHOR_IMAGE}
        alt={name}
        w={size}
        h={size}
        radius="xl"
        data-testid="author-image"
      />
      <Text size="sm">{name}</Text>
    </Group>
  );
}
