import { Alert, Button, Modal, Stack, Text, TextInput, Textarea } from '@mantine/core';
import { useState } from 'react';
import { useAppStore } from '../../lib/store';
import { useTranslation } from '../../lib/i18n';
import { apiRequest, messageOf } from '../../lib/api-client';

export interface HelpDialogProps {
  opened: boolean;
  onClose(): void;
  subject: string;
  /** What failed, pre-filled in the message. */
  details: string;
}

/**
 * 'Seems like you might need a hand' (spec B 4, 7, 8): after three identical failing responses in
 * a row, a contact message (message, subject, mail) to the provider's support inbox through
 * POST /contact_message?_format=json (the support module's contact form).
 */
export function HelpDialog(props: HelpDialogProps) {
  const { t } = useTranslation();
  const user = useAppStore((s) => s.applicationUser);
  const [mail, setMail] = useState(user.mail ?? '');
  const [subject, setSubject] = useState(props.subject);
  const [message, setMessage] = useState(props.details);
  const [state, setState] = useState<
    { kind: 'idle' | 'sending' | 'sent' } | { kind: 'failed'; text: string }
  >({
    kind: 'idle',
  });

  async function send() {
    setState({ kind: 'sending' });
    try {
      await apiRequest('/contact_message', {
        method: 'POST',
        format: 'json',
        query: { _format: 'json' },
        body: { contact_form: 'feedback', name: user.name ?? mail, mail, subject, message },
      });
      setState({ kind: 'sent' });
    } catch (err) {
      setState({ kind: 'failed', text: messageOf(err, t('tryout.helpFailed')) });
    }
  }

  return (
    <Modal opened={props.opened} onClose={props.onClose} title={t('tryout.helpTitle')} centered>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void send();
        }}
      >
        <Stack gap="sm">
          <Text size="sm">{t('tryout.helpIntro')}</Text>
          <TextInput
            label={t('tryout.helpMail')}
            type="email"
            required
            value={mail}
            onChange={(e) => setMail(e.currentTarget.value)}
          />
          <TextInput
            label={t('tryout.helpSubject')}
            required
            value={subject}
            onChange={(e) => setSubject(e.currentTarget.value)}
          />
          <Textarea
            label={t('tryout.helpMessage')}
            required
            autosize
            minRows={4}
            value={message}
            onChange={(e) => setMessage(e.currentTarget.value)}
          />
          {state.kind === 'sent' && (
            <Alert color="green" role="status">
              {t('tryout.helpSent')}
            </Alert>
          )}
          {state.kind === 'failed' && (
            <Alert color="red" role="alert">
              {state.text}
            </Alert>
          )}
          <Button type="submit" loading={state.kind === 'sending'} disabled={state.kind === 'sent'}>
            {t('tryout.helpSend')}
          </Button>
        </Stack>
      </form>
    </Modal>
  );
}
