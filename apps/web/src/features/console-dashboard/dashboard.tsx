import '@mantine/charts/styles.css';
import { BarChart, LineChart } from '@mantine/charts';
import {
  Alert,
  Box,
  Button,
  Group,
  Loader,
  Paper,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import {
  DASHBOARD_DEFAULT_DAYS,
  DASHBOARD_MAX_DAYS,
  type ApiDayCalls,
  type ConsoleDashboard,
} from '@portico/contracts/console-dashboard';
import { TICKET_SEVERITIES } from '@portico/contracts/support-constants';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useMemo, useState, type FormEvent, type ReactNode } from 'react';
import { messageOf } from '../../lib/api-client';
import { locale, useTranslation, type MessageKey } from '../../lib/i18n';
import { formatDate, formatNumber } from '../../lib/text';
import { fetchDashboard, type DashboardRange } from './api';

const DAY_MS = 86_400_000;
const COLORS = ['blue.6', 'teal.6', 'orange.6', 'grape.6', 'red.6', 'cyan.6', 'lime.7', 'pink.6'];
const CHART_HEIGHT = 260;
// The charts are pictures of the summary and table beside them: no keyboard stop of their own.
const QUIET = { accessibilityLayer: false };

const isoDay = (d: Date) => d.toISOString().slice(0, 10);

/** The last 30 UTC days up to today, as the server's default. */
export function defaultRange(now = new Date()): DashboardRange {
  return { from: isoDay(new Date(now.getTime() - (DASHBOARD_DEFAULT_DAYS - 1) * DAY_MS)), to: isoDay(now) };
}

const percent = (errors: number, calls: number) => (calls ? Math.round((errors / calls) * 1000) / 10 : 0);
/** A UTC day of the summaries and tables: as the API gives it in English, as Intl writes it otherwise. */
const day = (iso: string) => (locale === 'en' ? iso : formatDate(iso));
/** An error rate as the page's language writes it (12.5 % / 12,5 %). */
const rate = (errors: number, calls: number) => `${formatNumber(percent(errors, calls))} %`;

/**
 * The administrators' dashboard on the console's home (issue 27): a date range, the figures of
 * now (active organizations in the range, applications per environment, go-live requests waiting
 * and their age) and charts of sign-ups, calls and error rates per API per day and open tickets by
 * severity. Every chart has a one-line summary and its figures as a table. Its own chunk, with
 * the chart library: loaded for administrators only.
 */
export default function Dashboard() {
  const { t } = useTranslation();
  const [range, setRange] = useState(defaultRange);
  const [draft, setDraft] = useState(range);
  const query = useQuery({
    queryKey: ['console-dashboard', range],
    queryFn: () => fetchDashboard(range),
    placeholderData: keepPreviousData,
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setRange(draft);
  };
  return (
    <Stack gap="lg" mb="xl" component="section" aria-labelledby="dashboard-title" data-testid="dashboard">
      <Title order={2} id="dashboard-title">
        {t('console.dashboard.title')}
      </Title>
      <form onSubmit={submit} aria-label={t('console.dashboard.range')}>
        <Group align="flex-end" gap="sm">
          <TextInput
            type="date"
            label={t('applications.ui.fromDate')}
            value={draft.from}
            max={draft.to}
            required
            onChange={(e) => setDraft((r) => ({ ...r, from: e.currentTarget.value }))}
          />
          <TextInput
            type="date"
            label={t('applications.ui.toDate')}
            value={draft.to}
            min={draft.from}
            required
            onChange={(e) => setDraft((r) => ({ ...r, to: e.currentTarget.value }))}
          />
          <Button type="submit">{t('console.dashboard.apply')}</Button>
          {query.isFetching && <Loader size="sm" aria-hidden />}
        </Group>
        <Text size="sm" c="dimmed" mt={4}>
          {t('console.dashboard.rangeHint', { max: DASHBOARD_MAX_DAYS })}
        </Text>
      </form>
      {query.isError && (
        <Alert color="red" role="alert">
          {messageOf(query.error, t('console.dashboard.loadFailed'))}
        </Alert>
      )}
      {query.data && <Figures data={query.data} />}
    </Stack>
  );
}

function Figures({ data }: { data: ConsoleDashboard }) {
  const { t } = useTranslation();
  const age = (seconds: number | null) => (seconds === null ? '' : formatAge(seconds, t));
  const totalSignUps = data.signUps.reduce((n, d) => n + d.count, 0);
  const totalTickets = TICKET_SEVERITIES.reduce((n, s) => n + data.openTickets[s], 0);
  const tickets = TICKET_SEVERITIES.map((severity) => ({ severity, count: data.openTickets[severity] }));
  return (
    <>
      <SimpleGrid
        cols={{ base: 1, xs: 2, md: 4 }}
        component="dl"
        aria-label={t('console.dashboard.figuresLabel')}
        m={0}
      >
        <Figure
          label={t('console.dashboard.activeOrganizations')}
          value={data.activeOrganizations}
          testId="figure-active-organizations"
        >
          {t('console.dashboard.activeOrganizationsHint')}
        </Figure>
        <Figure
          label={t('console.dashboard.appsDevelopment')}
          value={data.applications.development}
          testId="figure-apps-development"
        />
        <Figure
          label={t('console.dashboard.appsProduction')}
          value={data.applications.production}
          testId="figure-apps-production"
        />
        <Figure
          label={t('console.dashboard.goLiveWaiting')}
          value={data.goLive.waiting}
          testId="figure-go-live-waiting"
        >
          {data.goLive.waiting === 0
            ? t('console.dashboard.goLiveNone')
            : t('console.dashboard.goLiveAges', {
                oldest: age(data.goLive.oldestAgeSeconds),
                median: age(data.goLive.medianAgeSeconds),
              })}
        </Figure>
      </SimpleGrid>

      <ChartSection
        id="dashboard-sign-ups"
        title={t('console.dashboard.signUps')}
        summary={t('console.dashboard.signUpsSummary', {
          total: formatNumber(totalSignUps),
          from: day(data.from),
          to: day(data.to),
        })}
        chart={
          <BarChart
            h={CHART_HEIGHT}
            data={data.signUps}
            dataKey="day"
            barChartProps={QUIET}
            series={[{ name: 'count', label: t('console.dashboard.count'), color: 'blue.6' }]}
          />
        }
        table={
          <FigureTable
            label={t('console.dashboard.signUps')}
            head={[t('console.dashboard.day'), t('console.dashboard.count')]}
            rows={data.signUps.filter((d) => d.count > 0).map((d) => [day(d.day), formatNumber(d.count)])}
          />
        }
      />

      <CallSections data={data} />

      <ChartSection
        id="dashboard-tickets"
        title={t('console.dashboard.openTickets')}
        summary={t('console.dashboard.openTicketsSummary', { total: formatNumber(totalTickets) })}
        chart={
          <BarChart
            h={CHART_HEIGHT}
            data={tickets}
            dataKey="severity"
            barChartProps={QUIET}
            series={[{ name: 'count', label: t('console.dashboard.count'), color: 'orange.6' }]}
          />
        }
        table={
          <FigureTable
            label={t('console.dashboard.openTickets')}
            head={[t('console.dashboard.severity'), t('console.dashboard.count')]}
            rows={tickets.map((r) => [r.severity, r.count])}
          />
        }
      />
    </>
  );
}

/** Calls and error rates per API per day: two charts, one summary and one table. */
function CallSections({ data }: { data: ConsoleDashboard }) {
  const { t } = useTranslation();
  const { apis, callsByDay, ratesByDay } = useMemo(() => pivot(data.calls), [data.calls]);
  const calls = data.calls.reduce((n, r) => n + r.calls, 0);
  const errors = data.calls.reduce((n, r) => n + r.errors, 0);
  const series = apis.map((api, i) => ({ name: api, color: COLORS[i % COLORS.length]! }));
  if (!data.calls.length)
    return (
      <Box component="section" aria-labelledby="dashboard-calls">
        <Title order={3} size="h4" id="dashboard-calls" mb="xs">
          {t('console.dashboard.calls')}
        </Title>
        <Text c="dimmed">{t('console.dashboard.noCalls')}</Text>
      </Box>
    );
  return (
    <>
      <ChartSection
        id="dashboard-calls"
        title={t('console.dashboard.calls')}
        summary={t('console.dashboard.callsSummary', {
          calls: formatNumber(calls),
          errors: formatNumber(errors),
          rate: rate(errors, calls),
          from: day(data.from),
          to: day(data.to),
        })}
        chart={
          <LineChart
            h={CHART_HEIGHT}
            data={callsByDay}
            dataKey="day"
            withLegend
            lineChartProps={QUIET}
            series={series}
          />
        }
        table={
          <FigureTable
            label={t('console.dashboard.calls')}
            head={[
              t('console.dashboard.day'),
              t('console.dashboard.api'),
              t('console.dashboard.callsColumn'),
              t('console.dashboard.errorsColumn'),
              t('console.dashboard.rateColumn'),
            ]}
            rows={data.calls.map((r) => [
              day(r.day),
              r.api,
              formatNumber(r.calls),
              formatNumber(r.errors),
              rate(r.errors, r.calls),
            ])}
          />
        }
      />
      <ChartSection
        id="dashboard-error-rates"
        title={t('console.dashboard.errorRate')}
        summary={t('console.dashboard.callsSummary', {
          calls: formatNumber(calls),
          errors: formatNumber(errors),
          rate: rate(errors, calls),
          from: day(data.from),
          to: day(data.to),
        })}
        chart={
          <LineChart
            h={CHART_HEIGHT}
            data={ratesByDay}
            dataKey="day"
            withLegend
            unit=" %"
            lineChartProps={QUIET}
            yAxisProps={{ domain: [0, 100] }}
            series={series}
          />
        }
      />
    </>
  );
}

/** One row per day with a key per API: what the line charts draw. */
function pivot(rows: ApiDayCalls[]) {
  const apis = [...new Set(rows.map((r) => r.api))].sort();
  const calls = new Map<string, Record<string, string | number>>();
  const rates = new Map<string, Record<string, string | number>>();
  for (const r of rows) {
    if (!calls.has(r.day)) {
      calls.set(r.day, { day: r.day, ...Object.fromEntries(apis.map((a) => [a, 0])) });
      rates.set(r.day, { day: r.day });
    }
    calls.get(r.day)![r.api] = r.calls;
    rates.get(r.day)![r.api] = percent(r.errors, r.calls);
  }
  return { apis, callsByDay: [...calls.values()], ratesByDay: [...rates.values()] };
}

function Figure({
  label,
  value,
  testId,
  children,
}: {
  label: string;
  value: number;
  testId: string;
  children?: ReactNode;
}) {
  return (
    <Paper withBorder p="md" data-testid={testId}>
      <Text component="dt" size="sm" c="dimmed">
        {label}
      </Text>
      <Text component="dd" m={0} fz={28} fw={700}>
        {value}
      </Text>
      {children && (
        <Text component="dd" m={0} size="sm" c="dimmed">
          {children}
        </Text>
      )}
    </Paper>
  );
}

/**
 * A chart with its text alternative: the summary (read before the chart, which is hidden from
 * screen readers) and, where given, the figures as a table behind a disclosure.
 */
function ChartSection({
  id,
  title,
  summary,
  chart,
  table,
}: {
  id: string;
  title: string;
  summary: string;
  chart: ReactNode;
  table?: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <Box component="section" aria-labelledby={id} data-testid={id}>
      <Title order={3} size="h4" id={id} mb="xs">
        {title}
      </Title>
      <Text mb="xs" data-testid={`${id}-summary`}>
        {summary}
      </Text>
      <div aria-hidden>{chart}</div>
      {table && (
        <details>
          <summary>{t('console.dashboard.showTable')}</summary>
          {table}
        </details>
      )}
    </Box>
  );
}

function FigureTable({ label, head, rows }: { label: string; head: string[]; rows: (string | number)[][] }) {
  return (
    <Table.ScrollContainer minWidth={360} mt="xs">
      <Table striped withTableBorder aria-label={label}>
        <Table.Thead>
          <Table.Tr>
            {head.map((h) => (
              <Table.Th key={h} scope="col">
                {h}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((r) => (
            <Table.Tr key={String(r[0]) + String(r[1])}>
              {r.map((cell, i) => (
                <Table.Td key={i}>{cell}</Table.Td>
              ))}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

function formatAge(
  seconds: number,
  t: (key: MessageKey, values?: Record<string, string | number>) => string,
) {
  const minutes = Math.floor(seconds / 60) % 60;
  const hours = Math.floor(seconds / 3600) % 24;
  const days = Math.floor(seconds / 86400);
  if (days > 0) return t('console.dashboard.ageDays', { days, hours });
  if (seconds >= 3600) return t('console.dashboard.ageHours', { hours, minutes });
  return t('console.dashboard.ageMinutes', { minutes });
}
