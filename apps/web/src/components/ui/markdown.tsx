import { Box, Typography, type BoxProps } from '@mantine/core';
import { useEffect, useMemo, useState } from 'react';
import { plainParagraphs } from '../../lib/plain-markdown';
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
    (m) => {
      warmUp(m.renderMarkdown);
      return (render = m.renderMarkdown);
    },
    (err: unknown) => {
      loading = undefined; // a failed chunk may be fetched again on the next try
      throw err;
    },
  ));
}

/**
 * The parser's first text costs it far more than the next ones (its rules are compiled on first
 * use: about 100 ms on a slow machine): one small text while the page is idle, so that the first
 * description that needs it (an opened operation's) does not wait for that.
 */
function warmUp(renderer: Render) {
  const run = () => void renderer('*A* [b](#c) `d`\n\n- e\n\n| f |\n| - |\n| g |');
  if ('requestIdleCallback' in window) requestIdleCallback(run, { timeout: 2000 });
  else setTimeout(run, 0);
}

/**
 * CommonMark text (OpenAPI descriptions: API, tag, operation, parameter, response, schema) as
 * sanitized HTML. Until the renderer's chunk is here (normally before the data that needs it), the
 * text shows as written; it never suspends (decision 008).
 */
export function Markdown({
  text,
  className,
  ...props
}: BoxProps & {
  text: string;
  className?: string;
  /** The text's language when it is not the page's (a translation's fallback, decision 063). */
  lang?: string;
}) {
  // Plain sentences are paragraphs as they are: no parser needed (lib/plain-markdown.ts).
  const paragraphs = useMemo(() => plainParagraphs(text), [text]);
  const [renderer, setRenderer] = useState<Render | undefined>(() => render);
  useEffect(() => {
    if (renderer || paragraphs) return;
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
  }, [renderer, paragraphs]);
  const html = useMemo(() => (paragraphs ? undefined : renderer?.(text)), [paragraphs, renderer, text]);
  if (paragraphs) {
    return (
      <Typography
        {...props}
        className={[classes.markdown, className].filter(Boolean).join(' ')}
        data-markdown="html"
      >
        {paragraphs.map((p, i) => (
          <p key={i}>{p}</p>
        ))}
      </Typography>
    );
  }
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
