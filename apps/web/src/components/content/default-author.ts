/** The picture shown when an author's own picture fails to load (spec B 8). */
export const DEFAULT_AUTHOR_IMAGE =
  'data:image/svg+xml;utf8,' +
  encodeURIComponent(
    '<svg xmlns="http://www.w3.org/2000/svg" width="96" height="96" viewBox="0 0 96 96"><rect width="96" height="96" rx="48" fill="#adb5bd"/><circle cx="48" cy="38" r="18" fill="#f1f3f5"/><path d="M16 86c4-18 18-26 32-26s28 8 32 26" fill="#f1f3f5"/></svg>',
  );
