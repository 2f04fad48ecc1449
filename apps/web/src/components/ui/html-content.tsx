import DOMPurify from 'dompurify';
import { Typography, type BoxProps } from '@mantine/core';
import { useMemo } from 'react';

/** HTML from the server or from users, sanitized with DOMPurify before it reaches the page. */
export function HtmlContent({ html, ...props }: BoxProps & { html: string }) {
  const clean = useMemo(() => DOMPurify.sanitize(html, { USE_PROFILES: { html: true } }), [html]);
  return <Typography {...props} dangerouslySetInnerHTML={{ __html: clean }} />;
}
