import {
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  Group,
  List,
  Modal,
  SegmentedControl,
  Stack,
  Table,
  Text,
  Textarea,
  Title,
} from '@mantine/core';
import { goLiveRejectSchema, type GoLiveStatus } from '@portico/contracts/applications';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from '../../lib/i18n';
import { formatDateTime } from '../../lib/text';
import { afterPress } from '../../lib/touched';
import { Loading } from '../../components/ui/loading';
import { ConsolePage } from '../console/console-layout';
import { messageOf } from '../../lib/api-client';
import { decide, fetchGoLiveRequests, REVIEW_PAGE_SIZE, type GoLiveRequest } from './api';

const STATUS_COLORS: Record<GoLiveStatus, string> = { pending: 'yellow', approved: 'green', rejected: 'red' };
const when = (iso: string) => formatDateTime(iso);

/** /admin/go-live: the console's review of go-live requests (go-live reviewers and administrators). */
export default function AdminGoLivePage() {
  const { t } = useTranslation();
  return (
    <ConsolePage roles="go_live_reviewer" title={t('applications.ui.reviewTitle')}>
      <Review />
    </ConsolePage>
  );
}

function Review() {
  const { t } = useTranslation();
  const [status, setStatus] = useState<GoLiveStatus | 'all'>('pending');
  const [page, setPage] = useState(0);
  const query = useQuery({
    queryKey: ['admin-go-live', status, page],
    queryFn: () => fetchGoLiveRequests(status === 'all' ? null : status, page),
    placeholderData: keepPreviousData,
  });
  const pages = Math.max(1, Math.ceil((query.data?.meta.count ?? 0) / REVIEW_PAGE_SIZE));
  return (
    <>
      <SegmentedControl
        mb="md"
        aria-label={t('applications.ui.status')}
        value={status}
        onChange={(v) => {
          setStatus(v as GoLiveStatus | 'all');
          setPage(0);
        }}
        data={[
          { value: 'pending', label: t('applications.ui.pending') },
          { value: 'approved', label: t('applications.ui.approved') },
          { value: 'rejected', label: t('applications.ui.rejected') },
          { value: 'all', label: t('applications.ui.all') },
        ]}
      />
      {query.isPending ? (
        <Loading />
      ) : query.isError ? (
        <Alert color="red" role="alert">
          {messageOf(query.error, t('errors.somethingWentWrong'))}
        </Alert>
      ) : query.data.data.length === 0 ? (
        <Text c="dimmed">{t('applications.ui.noRequests')}</Text>
      ) : (
        <Stack gap="md" component="ul" p={0} m={0} style={{ listStyle: 'none' }}>
          {query.data.data.map((r) => (
            <RequestCard key={r.id} request={r} />
          ))}
        </Stack>
      )}
      {pages > 1 && (
        <Group justify="center" mt="md" component="nav" aria-label={t('applications.ui.reviewTitle')}>
          <Button variant="default" size="compact-sm" disabled={page === 0} onClick={() => setPage(0)}>
            {t('applications.ui.first')}
          </Button>
          <Button variant="default" size="compact-sm" disabled={page === 0} onClick={() => setPage(page - 1)}>
            {t('applications.ui.previous')}
          </Button>
          <Text size="sm">{t('applications.ui.pageOf', { page: page + 1, pages })}</Text>
          <Button
            variant="default"
            size="compact-sm"
            disabled={page >= pages - 1}
            onClick={() => setPage(page + 1)}
          >
            {t('applications.ui.next')}
          </Button>
          <Button
            variant="default"
            size="compact-sm"
            disabled={page >= pages - 1}
            onClick={() => setPage(pages - 1)}
          >
            {t('applications.ui.last')}
          </Button>
        </Group>
      )}
    </>
  );
}

function RequestCard({ request }: { request: GoLiveRequest }) {
  const { t } = useTranslation();
  const a = request.attributes;
  const appTitle = a.application?.title ?? a.applicationTitle ?? a.title;
  const fields: [string, string][] = [
    [t('applications.ui.developerType'), a.form.developerType],
    [t('applications.ui.firstName'), a.form.firstName],
    [t('applications.ui.lastName'), a.form.lastName],
    [t('applications.ui.companyName'), a.form.companyName],
    [t('applications.ui.address'), a.form.address],
    [t('applications.ui.email'), a.form.email],
    [t('applications.ui.siteUrl'), a.form.siteUrl],
    [t('applications.ui.useCases'), a.form.useCases],
  ];
  return (
    <Card
      withBorder
      component="li"
      padding="lg"
      data-testid="go-live-request"
      aria-labelledby={`request-${request.id}`}
    >
      <Group justify="space-between" align="flex-start" wrap="wrap">
        <Stack gap={2}>
          <Title order={2} size="h4" id={`request-${request.id}`}>
            {a.title}
          </Title>
          <Text size="sm">
            {t('applications.ui.application')}: {appTitle}
            {!a.application && ` (${t('applications.ui.applicationGone')})`}
            {a.organization && (
              <>
                {' · '}
                {t('applications.ui.organization')}: {a.organization.title}
              </>
            )}
          </Text>
          {a.requestedBy && (
            <Text size="sm" c="dimmed">
              {t('applications.ui.requested', {
                name: a.requestedBy.name,
                email: a.requestedBy.email,
                date: when(a.created),
              })}
            </Text>
          )}
        </Stack>
        <Badge color={STATUS_COLORS[a.status]} size="lg" data-testid="request-status">
          {t(`applications.ui.${a.status}`)}
        </Badge>
      </Group>
      <Table mt="md" fz="sm" layout="fixed" aria-label={a.title}>
        <Table.Tbody>
          {fields.map(([label, value]) => (
            <Table.Tr key={label}>
              <Table.Th scope="row" w={{ base: 120, sm: 220 }}>
                {label}
              </Table.Th>
              <Table.Td style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>{value}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {a.application && a.application.subscriptions.length > 0 && (
        <Stack gap={4} mt="md">
          <Title order={3} size="h5">
            {t('applications.ui.products')}
          </Title>
          <List size="sm">
            {a.application.subscriptions.map((s) => (
              <List.Item key={s.uuid}>
                {s.title}
                {s.version ? ` (${t('applications.ui.version', { version: s.version })})` : ''}
              </List.Item>
            ))}
          </List>
        </Stack>
      )}
      <Stack gap={4} mt="md">
        <Title order={3} size="h5">
          {t('applications.ui.documents')}
        </Title>
        {a.organization?.documents.length ? (
          <List size="sm">
            {a.organization.documents.map((d) => (
              <List.Item key={d.uuid}>
                <Anchor href={d.url} download={d.fileName}>
                  {d.fileName}
                </Anchor>
              </List.Item>
            ))}
          </List>
        ) : (
          <Text size="sm" c="dimmed">
            {t('applications.ui.noDocuments')}
          </Text>
        )}
      </Stack>
      {a.status !== 'pending' && (
        <Stack gap={2} mt="md" data-testid="decision">
          {a.decidedAt && (
            <Text size="sm">
              {t('applications.ui.decided', {
                status: t(`applications.ui.${a.status}`),
                name: a.decidedBy?.name ?? '—',
                date: when(a.decidedAt),
              })}
            </Text>
          )}
          {a.reason && (
            <Text size="sm">
              {t('applications.ui.reason')}: {a.reason}
            </Text>
          )}
        </Stack>
      )}
      {a.status === 'pending' && a.application && <Decision request={request} appTitle={appTitle} />}
    </Card>
  );
}

function Decision({ request, appTitle }: { request: GoLiveRequest; appTitle: string }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [open, setOpen] = useState<'approve' | 'reject' | null>(null);
  const [reason, setReason] = useState('');
  const [touched, setTouched] = useState(false);
  const reasonError = goLiveRejectSchema.safeParse({ reason }).error?.issues[0]?.message;
  const mutation = useMutation({
    mutationFn: (decision: 'approve' | 'reject') => decide(request.id, decision, reason.trim()),
    onSuccess: () => {
      setOpen(null);
      void client.invalidateQueries({ queryKey: ['admin-go-live'] });
    },
  });
  const close = () => {
    setOpen(null);
    mutation.reset();
  };
  return (
    <>
      <Group mt="md">
        <Button color="green" onClick={() => setOpen('approve')}>
          {t('applications.ui.approve')}
        </Button>
        <Button
          color="red"
          variant="outline"
          onClick={() => {
            setTouched(false);
            setOpen('reject');
          }}
        >
          {t('applications.ui.reject')}
        </Button>
      </Group>
      <Modal
        opened={open !== null}
        onClose={close}
        title={open === 'reject' ? t('applications.ui.reject') : t('applications.ui.approve')}
        centered
      >
        <form
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            setTouched(true);
            if (open === 'approve') mutation.mutate('approve');
            else if (open === 'reject' && !reasonError) mutation.mutate('reject');
          }}
        >
          <Stack>
            <Text>
              {open === 'reject'
                ? t('applications.ui.rejectConfirm', { title: appTitle })
                : t('applications.ui.approveConfirm', { title: appTitle })}
            </Text>
            {open === 'reject' && (
              <Textarea
                label={t('applications.ui.reason')}
                required
                autosize
                minRows={3}
                value={reason}
                onChange={(e) => setReason(e.currentTarget.value)}
                onBlur={() => afterPress(() => setTouched(true))}
                error={touched ? reasonError : undefined}
              />
            )}
            {mutation.isError && (
              <Alert color="red" role="alert">
                {messageOf(mutation.error, t('errors.somethingWentWrong'))}
              </Alert>
            )}
            <Group justify="flex-end">
              <Button variant="default" onClick={close}>
                {t('applications.ui.cancel')}
              </Button>
              <Button type="submit" color={open === 'reject' ? 'red' : 'green'} loading={mutation.isPending}>
                {open === 'reject' ? t('applications.ui.reject') : t('applications.ui.approve')}
              </Button>
            </Group>
          </Stack>
        </form>
      </Modal>
    </>
  );
}
