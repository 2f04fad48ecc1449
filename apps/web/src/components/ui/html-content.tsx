import DOMPurify from 'dompurify';
import { Typography, type BoxProps } from '@mantine/core';
import { useMemo } from 'react';

/** HTML from the server or from users, sanitized with DOMPurify before it reaches the page. */
/** `lang`: the text's language when it is not the page's (a translation's fallback, decision 063). */
export function HtmlContent({ html, ...props }: BoxProps & { html: string; lang?: string | undefined }) {
  const clean = useMemo(() => DOMPurify.sanitize(html, { USE_PROFILES: { html: true } }), [html]);
  return <Typography {...props} dangerouslySetInnerHTML={{ __html: clean }} />;
}
