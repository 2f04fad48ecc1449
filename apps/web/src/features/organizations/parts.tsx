import { Alert, Group, Loader, Stack, Text } from '@mantine/core';
import { useTranslation } from '../../lib/i18n';
import { formatDay } from '../../lib/text';
import { paths } from '../../config/paths';
import { PageBreadcrumbs, type Crumb } from '../../components/ui/page-breadcrumbs';
import type { TimedMessage } from './timed-message';
import type { UploadEntry } from './upload-queue';

/** Spec A 2: Organizations, then the organization name, then Edit or Members. */
export function OrganizationBreadcrumbs({
  organization,
  current,
}: {
  organization?: { id: string; name: string };
  current?: string;
}) {
  const { t } = useTranslation();
  const items: Crumb[] = [{ title: t('organizations.breadcrumbOrganizations'), to: paths.organizations }];
  if (organization) items.push({ title: organization.name, to: paths.organization(organization.id) });
  if (current) items.push({ title: current });
  return <PageBreadcrumbs items={items} />;
}

/** A status (green) or error (red) message; errors are announced as alerts. */
export function MessageAlert({ message }: { message: TimedMessage | null }) {
  if (!message) return null;
  return (
    <Alert
      color={message.kind === 'error' ? 'red' : 'green'}
      role={message.kind === 'error' ? 'alert' : 'status'}
      title={message.detail ? message.text : undefined}
    >
      {message.detail ?? message.text}
    </Alert>
  );
}

/** The files of an upload queue: running, uploaded, or failed with the server's title and detail. */
export function UploadList({ entries }: { entries: readonly UploadEntry[] }) {
  const { t } = useTranslation();
  if (!entries.length) return null;
  return (
    <Stack gap="xs" aria-live="polite">
      {entries.map((entry) =>
        entry.state === 'failed' ? (
          <Alert
            key={entry.key}
            color="red"
            role="alert"
            title={`${entry.fileName}: ${entry.problem?.title ?? ''}`}
          >
            {entry.problem?.detail}
          </Alert>
        ) : (
          <Group key={entry.key} gap="xs">
            {entry.state === 'done' ? null : <Loader size="xs" aria-hidden />}
            <Text size="sm" c={entry.state === 'done' ? 'green.8' : undefined}>
              {entry.state === 'done'
                ? `${entry.fileName} ✓`
                : t('organizations.uploading', { name: entry.fileName })}
            </Text>
          </Group>
        ),
      )}
    </Stack>
  );
}

/** The page for a caller who is a member but lacks the permission (the server would answer 403). */
export function NotPermitted() {
  const { t } = useTranslation();
  return (
    <Stack align="center" py={60}>
      <Text fw={700} size="xl" component="h1">
        {t('errors.unauthorized')}
      </Text>
      <Text>{t('errors.notAllowed')}</Text>
    </Stack>
  );
}

/** JSON:API error entries of a failed call, keyed by their source pointer. */
export function errorsByPointer(body: unknown): Map<string, string> {
  const out = new Map<string, string>();
  const errors = (body as { errors?: { title?: string; source?: { pointer?: string } }[] } | undefined)
    ?.errors;
  if (!Array.isArray(errors)) return out;
  for (const e of errors)
    if (e.source?.pointer && e.title && !out.has(e.source.pointer)) out.set(e.source.pointer, e.title);
  return out;
}

/** A date in the reader's time zone: DD-MM-YYYY in English (spec), else as Intl writes it. */
export function formatDate(iso: string): string {
  return formatDay(iso);
}
