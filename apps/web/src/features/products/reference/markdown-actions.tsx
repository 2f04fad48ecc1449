import { Button, Group, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from '../../../lib/i18n';

/** The Markdown of one operation of a published documentation (the server's modules/markdown). */
export function operationMarkdownUrl(origin: string, alias: string, key: string): string {
  return `${origin}/documentation/${encodeURIComponent(alias)}/operations/${encodeURIComponent(key)}.md`;
}

/** Chat assistants that take a first prompt in their address. */
const ASSISTANTS = [
  { id: 'chatgpt', label: 'products.openInChatGpt', url: (q: string) => `https://chatgpt.com/?q=${q}` },
  { id: 'claude', label: 'products.openInClaude', url: (q: string) => `https://claude.ai/new?q=${q}` },
] as const;

/**
 * 'Copy as Markdown' and 'Open in an assistant' beside an expanded operation (issue 30): the first
 * copies the operation's Markdown, the links open an assistant (ChatGPT, Claude) with a prompt naming its address.
 * The Markdown is fetched only when copied.
 */
export function MarkdownActions({ alias, operationKey }: { alias: string; operationKey: string }) {
  const { t } = useTranslation();
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  const url = operationMarkdownUrl(window.location.origin, alias, operationKey);
  const prompt = encodeURIComponent(t('products.assistantPrompt', { url }));

  const copy = async () => {
    try {
      const res = await fetch(url, { headers: { Accept: 'text/markdown' } });
      if (!res.ok) throw new Error(String(res.status));
      await navigator.clipboard.writeText(await res.text());
      setState('copied');
      window.setTimeout(() => setState('idle'), 2000);
    } catch {
      setState('failed');
    }
  };

  return (
    <Group gap="xs" data-testid="markdown-actions">
      <Button size="compact-sm" variant="default" onClick={() => void copy()}>
        {state === 'copied' ? t('products.markdownCopied') : t('products.copyMarkdown')}
      </Button>
      <Group gap={4} role="group" aria-label={t('products.openInAssistant')}>
        {ASSISTANTS.map((a) => (
          <Button
            key={a.id}
            size="compact-sm"
            variant="default"
            component="a"
            href={a.url(prompt)}
            target="_blank"
            rel="noopener noreferrer"
          >
            {t(a.label)}
          </Button>
        ))}
      </Group>
      {state === 'failed' && (
        <Text size="sm" c="red.8" role="alert">
          {t('products.markdownCopyFailed', { url })}
        </Text>
      )}
    </Group>
  );
}
