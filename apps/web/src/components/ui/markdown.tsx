import { Box, Typography, type BoxProps } from '@mantine/core';
import { useEffect, useMemo, useState } from 'react';
import classes from './markdown.module.css';

type Render = (text: string) => string;

let render: Render | undefined;
let loading: Promise<Render> | undefined;

/**
 * Loads the Markdown renderer (its own chunk, with the parser). Pages that show Markdown call it
 * as early as they can (the documentation page on mount), so that it arrives beside their data.
 */
export function preloadMarkdown(): Promise<Render> {
  return (loading ??= import('../../lib/markdown').then(
    (m) => (render = m.renderMarkdown),
    (err: unknown) => {
      loading = undefined; // a failed chunk may be fetched again on the next try
      throw err;
    },
  ));
}

/**
 * CommonMark text (OpenAPI descriptions: API, tag, operation, parameter, response, schema) as
 * sanitized HTML. Until the renderer's chunk is here (normally before the data that needs it), the
 * text shows as written; it never suspends (decision 008).
 */
export function Markdown({ text, className, ...props }: BoxProps & { text: string; className?: string }) {
  const [renderer, setRenderer] = useState<Render | undefined>(() => render);
  useEffect(() => {
    if (renderer) return;
    let live = true;
    preloadMarkdown().then(
      (r) => {
        if (live) setRenderer(() => r);
      },
      () => undefined, // stays plain text
    );
    return () => {
      live = false;
    };
  }, [renderer]);
  const html = useMemo(() => renderer?.(text), [renderer, text]);
  if (html === undefined) {
    return (
      <Box {...props} className={[classes.plain, className].filter(Boolean).join(' ')} data-markdown="plain">
        {text}
      </Box>
    );
  }
  return (
    <Typography
      {...props}
      className={[classes.markdown, className].filter(Boolean).join(' ')}
      data-markdown="html"
      dangerouslySetInnerHTML={{ __html: html }}
    />
  );
}
