import { Alert, Button, Modal, Stack, Text, TextInput, Textarea } from '@mantine/core';
import { useState } from 'react';
import { useAppStore } from '../../lib/store';
import { useTranslation } from '../../lib/i18n';
import { ApiError, apiRequest, messageOf } from '../../lib/api-client';
import { CONTACT_FORM_ID } from '@portico/contracts/support-constants';
// The support feature's captcha, exported for this dialog (its README): one widget for every form.
// eslint-disable-next-line no-restricted-imports
import { Captcha } from '../support/captcha';

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
  // Visitors solve the captcha; signed-in users only when the server asks (an unproven address).
  const [captchaAsked, setCaptchaAsked] = useState(false);
  const [captcha, setCaptcha] = useState<string | null>(null);
  const [resetKey, setResetKey] = useState(0);
  const showCaptcha = !user.isLoggedIn || captchaAsked;
  const [state, setState] = useState<
    { kind: 'idle' | 'sending' | 'sent' } | { kind: 'failed'; text: string }
  >({
    kind: 'idle',
  });

  async function send() {
    if (showCaptcha && !captcha) return;
    setState({ kind: 'sending' });
    try {
      await apiRequest('/contact_message', {
        method: 'POST',
        format: 'json',
        query: { _format: 'json' },
        body: {
          contact_form: CONTACT_FORM_ID,
          name: user.name ?? mail,
          mail,
          subject,
          message,
          ...(showCaptcha && captcha ? { altcha: captcha } : {}),
        },
      });
      setState({ kind: 'sent' });
    } catch (err) {
      if (err instanceof ApiError && firstCode(err.body) === 'captcha_required') setCaptchaAsked(true);
      setState({ kind: 'failed', text: messageOf(err, t('tryout.helpFailed')) });
    } finally {
      // A payload is good for one message.
      setCaptcha(null);
      setResetKey((k) => k + 1);
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
          {showCaptcha && state.kind !== 'sent' && <Captcha onChange={setCaptcha} resetKey={resetKey} />}
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
          <Button
            type="submit"
            loading={state.kind === 'sending'}
            disabled={state.kind === 'sent' || (showCaptcha && !captcha)}
          >
            {t('tryout.helpSend')}
          </Button>
        </Stack>
      </form>
    </Modal>
  );
}

function firstCode(body: unknown): string | undefined {
  const errors = (body as { errors?: { code?: unknown }[] } | null)?.errors;
  const code = Array.isArray(errors) ? errors[0]?.code : undefined;
  return typeof code === 'string' ? code : undefined;
}
