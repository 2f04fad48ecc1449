import { Alert, Badge, Code, Group, Stack, Table, Text, Title } from '@mantine/core';
import type {
  MediaTypeDetail,
  OperationDetail,
  ParameterDetail,
  ResponseDetail,
  SecurityRequirementDetail,
} from '@portico/contracts/catalog';
import { useTranslation } from '../../../lib/i18n';
import { Loading } from '../../../components/ui/loading';
import { messageOf } from '../../../lib/api-client';
import { useOperation } from '../api-documentation';
import { useReferenceSource } from './reference-source';
import { CodeSamples } from './code-samples';
import { Markdown } from '../../../components/ui/markdown';
import classes from './reference.module.css';
import { asObject, formatValue, prettyJson, schemaExamples, typeLabel } from './schema-model';
import { SchemaTree } from './schema-tree';
import { TryOutSlot } from './try-out-slot';
import { MarkdownActions } from './markdown-actions';

const LOCATIONS = ['path', 'query', 'header', 'cookie'] as const;

export interface OperationDetailsProps {
  alias: string;
  operationKey: string;
  contentHash: string;
  language: string | null;
  onLanguageChange: (id: string) => void;
}

/** An expanded operation: loaded on demand from GET /api/apidocs/{alias}/operations/{key}. */
export function OperationDetails(props: OperationDetailsProps) {
  const { t } = useTranslation();
  const source = useReferenceSource();
  const query = useOperation(source, props.operationKey, props.contentHash);
  if (query.isPending) return <Loading label={t('products.loadingOperation')} />;
  if (query.isError) {
    return (
      <Alert color="red" role="alert" my="sm">
        {messageOf(query.error, t('errors.somethingWentWrong'))}
      </Alert>
    );
  }
  const op = query.data;
  return (
    <Stack gap="lg" className={classes.details} data-testid={`operation-details-${op.key}`}>
      {/* A draft's preview has no public Markdown. */}
      {!source.preview && <MarkdownActions alias={props.alias} operationKey={op.key} />}
      {op.description && <Markdown text={op.description} fz="sm" />}
      {!op.webhook && <Code block>{`${op.method.toUpperCase()} ${op.server}${op.path}`}</Code>}
      <Security security={op.security} />
      <Parameters parameters={op.parameters} />
      {op.requestBody && (
        <section>
          <Title order={4} size="h5" mb={4}>
            {t(op.webhook ? 'products.webhookPayload' : 'products.requestBody')}
            {op.requestBody.required && (
              <Text span size="xs" c="red.8" fw={600} ml="xs">
                {t('products.required')}
              </Text>
            )}
          </Title>
          {op.requestBody.description && <Markdown text={op.requestBody.description} fz="sm" mb="xs" />}
          <Content content={op.requestBody.content} refs={op.refs} />
        </section>
      )}
      <Responses responses={op.responses} refs={op.refs} webhook={op.webhook === true} />
      {/* A webhook is a request the API sends: nothing to call or try out. */}
      {!op.webhook && (
        <>
          <section>
            <Title order={4} size="h5" mb="xs">
              {t('products.requestSamples')}
            </Title>
            <CodeSamples
              samples={op.samples}
              operationKey={op.key}
              language={props.language}
              onLanguageChange={props.onLanguageChange}
            />
          </section>
          {/* The sandbox answers the published version: a draft's preview has no try-out. */}
          {!source.preview && <TryOutSlot documentationAlias={props.alias} operation={op} />}
        </>
      )}
    </Stack>
  );
}

function Security({ security }: { security: SecurityRequirementDetail[] }) {
  const { t } = useTranslation();
  return (
    <section>
      <Title order={4} size="h5" mb={4}>
        {t('products.security')}
      </Title>
      {security.length === 0 ? (
        <Text size="sm">{t('products.noSecurity')}</Text>
      ) : (
        <Stack gap={4}>
          {security.length > 1 && <Text size="sm">{t('products.securityAlternatives')}</Text>}
          {security.map((alternative, i) => (
            <Group key={i} gap="xs" data-testid="security-requirement">
              {alternative.map((s) => (
                <Group key={s.scheme} gap={4}>
                  <Text size="sm" fw={600}>
                    {s.scheme}
                  </Text>
                  <Text size="xs" c="dimmed">
                    ({s.type})
                  </Text>
                  {s.scopes.length > 0 && (
                    <>
                      <Text size="xs" c="dimmed">
                        {t('products.scopes')}:
                      </Text>
                      {s.scopes.map((scope) => (
                        <Badge key={scope} size="sm" variant="light" tt="none">
                          {scope}
                        </Badge>
                      ))}
                    </>
                  )}
                </Group>
              ))}
            </Group>
          ))}
        </Stack>
      )}
    </section>
  );
}

/** Parameters by location (path, query, header, cookie), required ones marked. */
function Parameters({ parameters }: { parameters: ParameterDetail[] }) {
  const { t } = useTranslation();
  if (parameters.length === 0) return null;
  return (
    <section>
      <Title order={4} size="h5" mb={4}>
        {t('products.parameters')}
      </Title>
      <Stack gap="sm">
        {LOCATIONS.map((location) => {
          const list = parameters.filter((p) => p.in === location);
          if (list.length === 0) return null;
          const caption = t('products.parametersIn', { location: t(`products.location_${location}`) });
          return (
            <Table.ScrollContainer key={location} minWidth={420}>
              <Table withTableBorder verticalSpacing={6} data-testid={`parameters-${location}`}>
                <Table.Caption style={{ captionSide: 'top', textAlign: 'left' }}>{caption}</Table.Caption>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th scope="col" w="30%">
                      {t('products.name')}
                    </Table.Th>
                    <Table.Th scope="col" w="20%">
                      {t('products.type')}
                    </Table.Th>
                    <Table.Th scope="col">{t('products.description')}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {list.map((p) => (
                    <ParameterRow key={`${p.in}:${p.name}`} parameter={p} />
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          );
        })}
      </Stack>
    </section>
  );
}

function ParameterRow({ parameter: p }: { parameter: ParameterDetail }) {
  const { t } = useTranslation();
  const schema = asObject(p.schema);
  const values = schema && Array.isArray(schema.enum) ? (schema.enum as unknown[]) : [];
  const examples = p.example !== undefined ? [p.example] : schema ? schemaExamples(schema) : [];
  return (
    <Table.Tr>
      <Table.Td>
        <Text span ff="monospace" size="sm" fw={600} td={p.deprecated ? 'line-through' : undefined}>
          {p.name}
        </Text>
        {p.required && (
          <Text
            span
            c="red.8"
            fw={700}
            ml={4}
            title={t('products.requiredMark')}
            aria-label={t('products.requiredMark')}
          >
            *
          </Text>
        )}
        {p.deprecated && (
          <Badge size="xs" color="orange" variant="light" ml={4}>
            {t('products.deprecatedOperation')}
          </Badge>
        )}
      </Table.Td>
      <Table.Td>
        <Text span ff="monospace" size="sm" c="blue.8">
          {typeLabel(p.schema)}
        </Text>
      </Table.Td>
      <Table.Td>
        {p.description && <Markdown text={p.description} fz="sm" />}
        {values.length > 0 && (
          <Group gap={4} mt={2}>
            <Text span size="xs" c="dimmed">
              {t('products.enumValues')}:
            </Text>
            {values.map((v, i) => (
              <Code key={i}>{formatValue(v)}</Code>
            ))}
          </Group>
        )}
        {schema && 'default' in schema && (
          <Text size="xs" c="dimmed">
            {t('products.defaultValue')}: <Code>{formatValue(schema.default)}</Code>
          </Text>
        )}
        {examples.length > 0 && (
          <Text size="xs" c="dimmed">
            {t('products.example')}: <Code>{formatValue(examples[0])}</Code>
          </Text>
        )}
      </Table.Td>
    </Table.Tr>
  );
}

function Responses({
  responses,
  refs,
  webhook,
}: {
  responses: ResponseDetail[];
  refs: OperationDetail['refs'];
  webhook: boolean;
}) {
  const { t } = useTranslation();
  if (responses.length === 0) return null;
  return (
    <section>
      <Title order={4} size="h5" mb="xs">
        {t(webhook ? 'products.webhookResponses' : 'products.responses')}
      </Title>
      <Stack gap="md">
        {responses.map((r) => (
          <div key={r.status} data-testid={`response-${r.status}`}>
            <Group gap="xs" mb={4}>
              <Badge color={statusColor(r.status)} variant="light" size="lg">
                {r.status}
              </Badge>
              {r.description && <Markdown text={r.description} fz="sm" />}
            </Group>
            {Object.keys(r.headers).length > 0 && (
              <Table withTableBorder verticalSpacing={4} mb="xs">
                <Table.Caption style={{ captionSide: 'top', textAlign: 'left' }}>
                  {t('products.responseHeaders')}
                </Table.Caption>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th scope="col">{t('products.name')}</Table.Th>
                    <Table.Th scope="col">{t('products.type')}</Table.Th>
                    <Table.Th scope="col">{t('products.description')}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {Object.entries(r.headers).map(([name, h]) => (
                    <Table.Tr key={name}>
                      <Table.Td ff="monospace">{name}</Table.Td>
                      <Table.Td ff="monospace">{typeLabel(h.schema)}</Table.Td>
                      <Table.Td>{h.description && <Markdown text={h.description} fz="sm" />}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            )}
            <Content content={r.content} refs={refs} />
          </div>
        ))}
      </Stack>
    </section>
  );
}

/** Each media type: its name, schema tree and examples. */
function Content({
  content,
  refs,
}: {
  content: Record<string, MediaTypeDetail>;
  refs: OperationDetail['refs'];
}) {
  const { t } = useTranslation();
  return (
    <Stack gap="sm">
      {Object.entries(content).map(([mediaType, media]) => {
        const examples = mediaExamples(media);
        return (
          <div key={mediaType}>
            <Text size="xs" c="dimmed">
              {t('products.contentType')}: <Code>{mediaType}</Code>
            </Text>
            {media.schema !== null && <SchemaTree schema={media.schema} refs={refs} />}
            {examples.map(([name, value]) => (
              <div key={name}>
                <Text size="xs" c="dimmed" mt={4}>
                  {t('products.example')}
                  {name !== 'example' ? `: ${name}` : ''}
                </Text>
                <Code block>{prettyJson(value)}</Code>
              </div>
            ))}
          </div>
        );
      })}
    </Stack>
  );
}

function mediaExamples(media: MediaTypeDetail): [string, unknown][] {
  if (media.examples && Object.keys(media.examples).length > 0) {
    return Object.entries(media.examples).map(([name, e]) => [e.summary ?? name, e.value]);
  }
  if (media.example !== undefined) return [['example', media.example]];
  return [];
}

function statusColor(status: string): string {
  if (status.startsWith('2')) return 'green';
  if (status.startsWith('3')) return 'blue';
  if (status.startsWith('4')) return 'orange';
  if (status.startsWith('5')) return 'red';
  return 'gray';
}
