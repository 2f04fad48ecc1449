import { Alert, Button, Group, TextInput, Title } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from '../../lib/i18n';
import { afterPress } from '../../lib/touched';
import { isNewsletterEmail } from '@portico/contracts/email';
import { apiRequest, messageOf } from '../../lib/api-client';

/** Newsletter sign-up in the footer (spec B 1, 5: e-mail required). */
export default function NewsletterForm() {
  const { t } = useTranslation();
  const [email, setEmail] = useState('');
  const [touched, setTouched] = useState(false);
  const subscribe = useMutation({
    mutationFn: (value: string) =>
      apiRequest('/api/newsletter', { method: 'POST', body: { email: value }, format: 'json' }),
    onSuccess: () => {
      setEmail('');
      setTouched(false);
    },
  });
  const error = !touched
    ? undefined
    : !email.trim()
      ? t('newsletter.required')
      : isNewsletterEmail(email.trim())
        ? undefined
        : t('newsletter.invalidEmail');

  function submit(e: FormEvent) {
    e.preventDefault();
    setTouched(true);
    if (!isNewsletterEmail(email.trim())) return;
    subscribe.mutate(email.trim());
  }

  return (
    <form onSubmit={submit} noValidate aria-label={t('newsletter.title')}>
      <Title order={2} size="h5" mb="xs" c="gray.2">
        {t('newsletter.title')}
      </Title>
      <Group align="flex-start" gap="xs">
        <TextInput
          type="email"
          label={t('newsletter.email')}
          labelProps={{ c: 'gray.3' }}
          value={email}
          onChange={(e) => setEmail(e.currentTarget.value)}
          onBlur={() => afterPress(() => setTouched(true))}
          error={error}
          required
          style={{ flex: 1, minWidth: 200 }}
        />
        <Button type="submit" mt={24} loading={subscribe.isPending}>
          {t('newsletter.subscribe')}
        </Button>
      </Group>
      {subscribe.isSuccess && (
        <Alert color="green" mt="xs" role="status">
          {t('newsletter.success')}
        </Alert>
      )}
      {subscribe.isError && (
        <Alert color="red" mt="xs" role="alert">
          {messageOf(subscribe.error, t('newsletter.failure'))}
        </Alert>
      )}
    </form>
  );
}
