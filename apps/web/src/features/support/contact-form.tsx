import { Alert, Button, Stack, TextInput, Textarea } from '@mantine/core';
import { isNewsletterEmail } from '@portico/contracts/email';
import { useState, type FormEvent } from 'react';
import { ApiError, messageOf } from '../../lib/api-client';
import { useTranslation } from '../../lib/i18n';
import { useTouched } from '../../lib/touched';
import classes from './support.module.css';
import { useUser } from '../../lib/store';
import { sendContactMessage } from './api';
import { Captcha } from './captcha';

export type ContactField = 'name' | 'mail' | 'subject' | 'message';
const FIELDS: ContactField[] = ['name', 'mail', 'subject', 'message'];

export interface ContactFormProps {
  /** Values the form starts with (and goes back to after a message was sent). */
  initial?: Partial<Record<ContactField, string>>;
  /** Fields not shown; their values come from `initial` (or the signed-in user's name and address). */
  hidden?: ContactField[];
  /** Called after a message was sent. */
  onSent?(): void;
}

/**
 * The contact form of spec B 2.9, 4, 5 and 8: name, mail, subject and message, all required; Send
 * is disabled until the captcha is solved; after success the form starts again and says 'Your
 * message has been sent successfully.'; a failure shows the server's message or the spec's
 * fallback. The messages live in this component, so they are gone once the page is left.
 * Visitors solve the captcha; a signed-in user writes without one unless the server asks for it
 * (an address that was never proven), and then the captcha appears.
 */
export function ContactForm({ initial = {}, hidden = [], onSent }: ContactFormProps) {
  const { t } = useTranslation();
  const user = useUser();
  const start = (): Record<ContactField, string> => ({
    name: initial.name ?? (user.isLoggedIn ? (user.name ?? '') : ''),
    mail: initial.mail ?? (user.isLoggedIn ? (user.mail ?? '') : ''),
    subject: initial.subject ?? '',
    message: initial.message ?? '',
  });
  const [values, setValues] = useState(start);
  const { touched, touch, touchAll, reset } = useTouched<ContactField>();
  const [captcha, setCaptcha] = useState<string | null>(null);
  const [captchaAsked, setCaptchaAsked] = useState(false);
  const [resetKey, setResetKey] = useState(0);
  const [sending, setSending] = useState(false);
  const [status, setStatus] = useState<{ kind: 'success' | 'error'; text: string } | null>(null);

  const showCaptcha = !user.isLoggedIn || captchaAsked;
  const errorOf = (field: ContactField): string | undefined => {
    if (!touched[field]) return undefined;
    const value = values[field].trim();
    if (!value) return t('support.required');
    if (field === 'mail' && !isNewsletterEmail(value)) return t('support.invalidEmail');
    return undefined;
  };
  const valid = FIELDS.every((f) => {
    const v = values[f].trim();
    return v !== '' && (f !== 'mail' || isNewsletterEmail(v));
  });

  async function submit(e: FormEvent) {
    e.preventDefault();
    touchAll(FIELDS);
    if (!valid || (showCaptcha && !captcha)) return;
    setSending(true);
    setStatus(null);
    try {
      await sendContactMessage({
        name: values.name.trim(),
        mail: values.mail.trim(),
        subject: values.subject.trim(),
        message: values.message.trim(),
        ...(showCaptcha && captcha ? { altcha: captcha } : {}),
      });
      setValues(start());
      reset();
      setStatus({ kind: 'success', text: t('support.sent') });
      onSent?.();
    } catch (error) {
      const code = error instanceof ApiError ? firstCode(error.body) : undefined;
      if (code === 'captcha_required') setCaptchaAsked(true);
      setStatus({ kind: 'error', text: messageOf(error, t('support.sendFailed')) });
    } finally {
      // A payload is good for one message: the next one needs a new proof of work.
      setCaptcha(null);
      setResetKey((k) => k + 1);
      setSending(false);
    }
  }

  const input = (field: ContactField) => ({
    value: values[field],
    error: errorOf(field),
    required: true,
    onChange: (e: { currentTarget: { value: string } }) => {
      const value = e.currentTarget.value;
      setValues((v) => ({ ...v, [field]: value }));
    },
    onBlur: () => touch(field),
  });

  return (
    <form
      onSubmit={(e) => void submit(e)}
      noValidate
      className={classes.form}
      aria-label={t('support.contactTitle')}
    >
      <Stack>
        {status && (
          <Alert
            color={status.kind === 'error' ? 'red' : 'green'}
            role={status.kind === 'error' ? 'alert' : 'status'}
          >
            {status.text}
          </Alert>
        )}
        {!hidden.includes('name') && (
          <TextInput label={t('support.name')} autoComplete="name" {...input('name')} />
        )}
        {!hidden.includes('mail') && (
          <TextInput label={t('support.mail')} type="email" autoComplete="email" {...input('mail')} />
        )}
        {!hidden.includes('subject') && <TextInput label={t('support.subject')} {...input('subject')} />}
        {!hidden.includes('message') && (
          <Textarea label={t('support.message')} autosize minRows={5} {...input('message')} />
        )}
        {showCaptcha && <Captcha onChange={setCaptcha} resetKey={resetKey} />}
        <div>
          <Button type="submit" loading={sending} disabled={showCaptcha && !captcha}>
            {t('support.send')}
          </Button>
        </div>
      </Stack>
    </form>
  );
}

function firstCode(body: unknown): string | undefined {
  const errors = (body as { errors?: { code?: string }[] } | undefined)?.errors;
  return Array.isArray(errors) ? errors[0]?.code : undefined;
}
