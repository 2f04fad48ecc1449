import { Affix, Anchor, Button, CloseButton, Group, Paper, Stack, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { WIDE_SCREEN_MIN_PX } from '@portico/contracts/constants';
import { IconExternalLink, IconMessageChatbot } from '@tabler/icons-react';
import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { useTranslation } from '../../lib/i18n';
import { deepLinkedOperation } from '@portico/contracts/documentation-data';
import { chatBotFrameUrl } from './chat-bot-url';

/** What the provider's bot may do in its frame: run, keep its own session, send forms, open links. */
const SANDBOX = 'allow-scripts allow-same-origin allow-forms allow-popups';

/**
 * The documentation's chat bot (spec B 2.12): a floating launcher that opens a panel embedding the
 * provider's bot in a sandboxed frame. The frame is created on the first open (no request to the
 * bot before the user asks for it) and is kept while the panel is closed, so the conversation
 * survives; every open points it at the current context (documentation alias and the operation
 * the address names). A non-modal panel: focus moves to its heading on open and back to the
 * launcher on close or Escape. The server's Content-Security-Policy lets the catalog's bot
 * origins, and no others, be framed (catalog README 'Chat bots').
 */
export default function ChatBotBlock({
  botUrl,
  documentationAlias,
  documentationTitle,
}: {
  botUrl: URL;
  documentationAlias: string;
  documentationTitle: string;
}) {
  const { t } = useTranslation();
  const id = useId();
  const headingId = `${id}-heading`;
  const panelId = `${id}-panel`;
  const [opened, setOpened] = useState(false);
  const [src, setSrc] = useState<string | null>(null);
  const launcher = useRef<HTMLButtonElement>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  // Above the try-out history button, which floats in the same corner on wide screens.
  const wide = useMediaQuery(`(min-width: ${WIDE_SCREEN_MIN_PX + 1}px)`, true);

  useEffect(() => {
    if (opened) heading.current?.focus();
  }, [opened]);

  const open = () => {
    setSrc(
      chatBotFrameUrl(
        botUrl,
        documentationAlias,
        deepLinkedOperation(window.location.search, window.location.hash),
      ),
    );
    setOpened(true);
  };
  const close = () => {
    setOpened(false);
    launcher.current?.focus();
  };
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Escape') {
      event.stopPropagation();
      close();
    }
  };

  return (
    <Affix position={{ bottom: wide ? 84 : 24, right: 24 }} zIndex={160}>
      <Stack gap="sm" align="flex-end">
        {src && (
          <Paper
            id={panelId}
            role="dialog"
            aria-modal="false"
            aria-labelledby={headingId}
            onKeyDown={onKeyDown}
            withBorder
            shadow="xl"
            p="sm"
            display={opened ? 'flex' : 'none'}
            data-testid="chat-bot-panel"
            style={{
              flexDirection: 'column',
              width: 'min(380px, calc(100vw - 48px))',
              height: 'min(560px, calc(100vh - 180px))',
            }}
          >
            <Group justify="space-between" wrap="nowrap" gap="xs" mb="xs">
              <Title order={2} size="h5" id={headingId} ref={heading} tabIndex={-1}>
                {t('chatBot.title', { title: documentationTitle })}
              </Title>
              <CloseButton onClick={close} aria-label={t('chatBot.close')} />
            </Group>
            <iframe
              src={src}
              title={t('chatBot.frameTitle', { title: documentationTitle })}
              sandbox={SANDBOX}
              referrerPolicy="strict-origin-when-cross-origin"
              style={{ flex: 1, width: '100%', border: 0 }}
              data-testid="chat-bot-frame"
            />
            <Anchor href={src} target="_blank" rel="noopener noreferrer" size="sm" mt="xs">
              <Group component="span" gap={4} wrap="nowrap">
                {t('chatBot.openInNewTab')}
                <IconExternalLink size={14} aria-hidden="true" />
              </Group>
            </Anchor>
          </Paper>
        )}
        <Button
          ref={launcher}
          onClick={opened ? close : open}
          aria-expanded={opened}
          aria-controls={src ? panelId : undefined}
          leftSection={<IconMessageChatbot size={18} aria-hidden="true" />}
          radius="xl"
          size="md"
          data-testid="chat-bot-launcher"
        >
          {t('chatBot.open')}
        </Button>
      </Stack>
    </Affix>
  );
}
