/**
 * Images uploaded in the provider console (issue 27) for articles, pages and FAQ answers: what
 * `GET /admin-api/images` lists and `POST /admin-api/images` answers, and where they are served
 * (server: modules/console-images/README.md).
 */

/** Every uploaded image is served at `${CONSOLE_IMAGES_PATH}<uuid>.<ext>`, to anyone, for good. */
export const CONSOLE_IMAGES_PATH = '/images/console/';

/** The image types accepted (by their bytes, not their names): what the file input offers. */
export const CONSOLE_IMAGE_ACCEPT = 'image/png,image/jpeg,image/gif,image/webp';

/** At most this many bytes (the limit of every upload, lib/uploads.ts MAX_UPLOAD_BYTES). */
export const CONSOLE_IMAGE_MAX_BYTES = 10 * 1024 * 1024;

/** The list's page: `page[limit]` by default and at most. */
export const CONSOLE_IMAGES_PAGE_DEFAULT = 24;
export const CONSOLE_IMAGES_PAGE_MAX = 100;

export interface ConsoleImage {
  /** The image's uuid. */
  id: string;
  /** Where it is served: `/images/console/<uuid>.<ext>`, the address to put in Markdown. */
  url: string;
  /** The uploaded file's name, cleaned (a label only; the type comes from the bytes). */
  name: string;
  /** image/png, image/jpeg, image/gif or image/webp. */
  type: string;
  /** Bytes. */
  size: number;
  /** Pixels, when the image's header says them. */
  width: number | null;
  height: number | null;
  /** The uploader's name, or null when that account is gone. */
  uploadedBy: string | null;
  /** ISO instant. */
  created: string;
}

/** `GET /admin-api/images`: newest first. */
export interface ConsoleImageList {
  data: ConsoleImage[];
  meta: { count: number };
}
