import { CONSOLE_IMAGES_PATH, type ConsoleImage } from '@portico/contracts/console-images';
import { IMAGE_MIME_TYPES, type ImageType } from '../../lib/uploads.ts';
import type { Db } from '../../db/client.ts';
import { imagesDb, type ConsoleImagesTable } from './tables.ts';

/** The file extension of each type in the served address (and the exported file's name). */
export const EXTENSIONS: Record<ImageType, string> = { png: 'png', jpeg: 'jpg', gif: 'gif', webp: 'webp' };

/** The type of a served name's extension. */
export const TYPE_OF_EXTENSION: Record<string, ImageType> = {
  png: 'png',
  jpg: 'jpeg',
  gif: 'gif',
  webp: 'webp',
};

/** `<uuid>.<ext>`: the name the image is served and exported under. */
export const fileNameOf = (uuid: string, type: ImageType) => `${uuid}.${EXTENSIONS[type]}`;

type Row = Pick<ConsoleImagesTable, 'uuid' | 'file_name' | 'type' | 'size' | 'width' | 'height'> & {
  created: Date | string;
  uploader: string | null;
};

export function imageJson(row: Row): ConsoleImage {
  return {
    id: row.uuid,
    url: `${CONSOLE_IMAGES_PATH}${fileNameOf(row.uuid, row.type)}`,
    name: row.file_name,
    type: IMAGE_MIME_TYPES[row.type],
    size: row.size,
    width: row.width,
    height: row.height,
    uploadedBy: row.uploader,
    created: new Date(row.created).toISOString(),
  };
}

/**
 * Which of the served names `names` (`<uuid>.<ext>`) are images uploaded in the console: the
 * content module's internal-link check.
 */
export async function existingImageNames(db: Db, names: readonly string[]): Promise<Set<string>> {
  const uuids = [
    ...new Set(
      names
        .map((n) =>
          /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.[a-z]+$/i
            .exec(n)?.[1]
            ?.toLowerCase(),
        )
        .filter((u) => u !== undefined),
    ),
  ];
  if (!uuids.length) return new Set();
  const rows = await imagesDb(db)
    .selectFrom('console_images')
    .select(['uuid', 'type'])
    .where('uuid', 'in', uuids)
    .execute();
  return new Set(rows.map((r) => fileNameOf(r.uuid, r.type)));
}
