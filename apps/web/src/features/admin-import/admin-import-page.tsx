import {
  Alert,
  Anchor,
  Box,
  Button,
  Checkbox,
  FileInput,
  Group,
  List,
  Loader,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import {
  API_IMPORT_MAX_BYTES,
  apiImportOptionsSchema,
  type ApiImportResult,
} from '@portico/contracts/api-import';
import { useMutation } from '@tanstack/react-query';
import { useRef, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { ConsolePage } from '../console/console-layout';
import { paths } from '../../config/paths';
import { ApiError, messageOf } from '../../lib/api-client';
import { useTranslation, type Translate } from '../../lib/i18n';
import { importApiDocument } from './api';

const MAX_MB = API_IMPORT_MAX_BYTES / 1024 / 1024;
type Field = 'file' | 'product' | 'alias' | 'title' | 'category' | 'plan' | 'deprecated';

/** One error of the server's answer: the JSON:API error list of a refused document. */
interface ServerError {
  title?: string;
  detail?: string;
  source?: { pointer?: string; parameter?: string };
  meta?: { line?: number; column?: number };
}

/**
 * /admin/import-api: a provider administrator imports an OpenAPI document as the `import-api`
 * command does (decision 033), and gets the documentation's and the product's links, or the
 * document's problems with their lines.
 */
export default function AdminImportPage() {
  const { t } = useTranslation();
  return (
    <ConsolePage roles="api_manager" title={t('apiImport.title')}>
      <ImportForm />
    </ConsolePage>
  );
}

function ImportForm() {
  const { t } = useTranslation();
  const [file, setFile] = useState<File | null>(null);
  const [values, setValues] = useState({ product: '', alias: '', title: '', category: '', plan: '' });
  const [deprecated, setDeprecated] = useState(false);
  const [fieldErrors, setFieldErrors] = useState<Partial<Record<Field, string>>>({});
  const resultRef = useRef<HTMLDivElement>(null);
  const run = useMutation({
    mutationFn: (input: { file: File; options: Parameters<typeof importApiDocument>[1] }) =>
      importApiDocument(input.file, input.options),
    onSuccess: () => setTimeout(() => resultRef.current?.focus(), 0),
    onError: (err) => {
      // An option the server refused names its query parameter: shown at that field.
      const first = serverErrors(err)[0];
      const parameter = first?.source?.parameter;
      if (err instanceof ApiError && err.status === 400 && parameter && parameter in values) {
        setFieldErrors({ [parameter as Field]: first.title });
      }
    },
  });

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const errors: Partial<Record<Field, string>> = {};
    if (!file) errors.file = t('apiImport.fileRequired');
    else if (file.size > API_IMPORT_MAX_BYTES) errors.file = t('apiImport.tooLarge', { max: MAX_MB });
    const parsed = apiImportOptionsSchema.safeParse({
      ...values,
      deprecated: deprecated ? 'true' : undefined,
    });
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const field = String(issue.path[0]) as Field;
        errors[field] ??= issue.message;
      }
    }
    setFieldErrors(errors);
    if (!file || !parsed.success || Object.keys(errors).length) return;
    run.mutate({ file, options: parsed.data });
  };
  const text = (field: keyof typeof values, label: string, description?: string, required = false) => (
    <TextInput
      label={label}
      description={description}
      required={required}
      value={values[field]}
      onChange={(e) => {
        const value = e.currentTarget.value;
        setValues((v) => ({ ...v, [field]: value }));
      }}
      error={fieldErrors[field]}
      disabled={run.isPending}
    />
  );

  return (
    <Box maw={960}>
      <Text mb="lg">{t('apiImport.intro')}</Text>
      <form onSubmit={submit} noValidate aria-describedby="import-status">
        <Stack gap="md">
          <FileInput
            label={t('apiImport.file')}
            description={t('apiImport.fileHint', { max: MAX_MB })}
            accept=".json,.yaml,.yml,application/json,application/yaml"
            required
            clearable
            clearButtonProps={{ 'aria-label': t('apiImport.clearFile') }}
            value={file}
            onChange={(f) => {
              setFile(f);
              setFieldErrors((e) => ({ ...e, file: undefined }));
            }}
            error={fieldErrors.file}
            disabled={run.isPending}
          />
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            {text('product', t('apiImport.product'), t('apiImport.productHint'), true)}
            {text('alias', t('apiImport.alias'), t('apiImport.aliasHint'))}
            {text('title', t('apiImport.docTitle'), t('apiImport.docTitleHint'))}
            {text('category', t('apiImport.category'), t('apiImport.categoryHint'))}
            {text('plan', t('apiImport.plan'), t('apiImport.planHint'))}
          </SimpleGrid>
          <Checkbox
            label={t('apiImport.deprecated')}
            checked={deprecated}
            onChange={(e) => setDeprecated(e.currentTarget.checked)}
            disabled={run.isPending}
          />
          <Group>
            <Button type="submit" loading={run.isPending}>
              {t('apiImport.submit')}
            </Button>
          </Group>
        </Stack>
      </form>
      <div id="import-status" role="status" aria-live="polite">
        {run.isPending && file && (
          <Group gap="xs" mt="md">
            <Loader size="sm" aria-hidden />
            <Text>{t('apiImport.importing', { name: file.name })}</Text>
          </Group>
        )}
      </div>
      {run.isSuccess && (
        <div ref={resultRef} tabIndex={-1}>
          <ImportResult result={run.data} t={t} />
        </div>
      )}
      {run.isError && <ImportErrors error={run.error} t={t} />}
    </Box>
  );
}

function ImportResult({ result, t }: { result: ApiImportResult; t: Translate }) {
  const d = result.documentation;
  const p = result.product;
  const headline = t(`apiImport.${result.status}`, { title: d.title, alias: d.alias });
  return (
    <Alert color="green" mt="lg" title={headline} data-testid="import-result">
      <List size="sm" spacing={4}>
        {d.sourceSpecVersion && (
          <List.Item>{t('apiImport.converted', { version: d.sourceSpecVersion })}</List.Item>
        )}
        {d.operationCount !== null && (
          <List.Item>
            {t('apiImport.operations', { count: d.operationCount, groups: d.tags.length })}
          </List.Item>
        )}
        {d.webhookCount > 0 && <List.Item>{t('apiImport.webhooks', { count: d.webhookCount })}</List.Item>}
        <List.Item>
          {t(p.created ? 'apiImport.productCreated' : 'apiImport.productLinked', {
            title: p.title,
            alias: p.alias,
          })}
          {p.category ? ` ${t('apiImport.inCategory', { category: p.category })}` : ''}
        </List.Item>
      </List>
      <Group mt="sm">
        <Anchor component={Link} to={paths.documentation(d.alias)}>
          {t('apiImport.openDocumentation')}
        </Anchor>
        <Anchor component={Link} to={paths.apiProduct(p.alias)}>
          {t('apiImport.openProduct')}
        </Anchor>
      </Group>
    </Alert>
  );
}

/** The refusal: its title, and for a refused document every problem with its line and place. */
function ImportErrors({ error, t }: { error: unknown; t: Translate }) {
  const errors = serverErrors(error);
  const problems =
    error instanceof ApiError && error.status === 422 ? errors.filter((e) => e.detail !== e.title) : [];
  return (
    <Alert color="red" mt="lg" role="alert" title={messageOf(error, t('errors.somethingWentWrong'))}>
      {problems.length > 0 && (
        <List size="sm" spacing={4} aria-label={t('apiImport.problemsLabel')}>
          {problems.map((p, i) => (
            <List.Item key={i}>
              {[
                p.meta?.line ? `line ${p.meta.line}${p.meta.column ? `:${p.meta.column}` : ''}` : '',
                p.source?.pointer && p.source.pointer !== '/' ? p.source.pointer : '',
              ]
                .filter(Boolean)
                .join(', ')}
              {p.meta?.line || (p.source?.pointer && p.source.pointer !== '/') ? ': ' : ''}
              {p.detail}
            </List.Item>
          ))}
        </List>
      )}
    </Alert>
  );
}

function serverErrors(error: unknown): ServerError[] {
  if (!(error instanceof ApiError)) return [];
  const list = (error.body as { errors?: unknown } | undefined)?.errors;
  return Array.isArray(list) ? (list as ServerError[]) : [];
}
