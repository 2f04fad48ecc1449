import { Button, Code, CopyButton, Tabs } from '@mantine/core';
import type { CodeSample } from '@portico/contracts/catalog';
import { useTranslation } from '../../../lib/i18n';
import classes from './reference.module.css';

/**
 * Request samples in the languages the server generated (curl, JavaScript, Python, Java, Node),
 * one tab each, with a copy button. The chosen language is shared by every operation of the page.
 */
export function CodeSamples({
  samples,
  operationKey,
  language,
  onLanguageChange,
}: {
  samples: CodeSample[];
  operationKey: string;
  language: string | null;
  onLanguageChange: (id: string) => void;
}) {
  const { t } = useTranslation();
  if (samples.length === 0) return null;
  const active = samples.some((s) => s.id === language) ? language : samples[0]!.id;
  return (
    <Tabs
      value={active}
      onChange={(v) => v && onLanguageChange(v)}
      keepMounted={false}
      id={`samples-${operationKey}`}
    >
      <Tabs.List aria-label={t('products.requestSamples')}>
        {samples.map((s) => (
          <Tabs.Tab key={s.id} value={s.id}>
            {s.label}
          </Tabs.Tab>
        ))}
      </Tabs.List>
      {samples.map((s) => (
        <Tabs.Panel key={s.id} value={s.id} pt="xs" className={classes.sample} data-testid={`sample-${s.id}`}>
          <Code block data-language={s.language}>
            {s.code}
          </Code>
          <CopyButton value={s.code} timeout={2000}>
            {({ copied, copy }) => (
              <Button
                size="compact-xs"
                variant={copied ? 'filled' : 'default'}
                color={copied ? 'teal' : undefined}
                onClick={copy}
                className={classes.copyButton}
              >
                {copied ? t('products.copied') : t('products.copy')}
              </Button>
            )}
          </CopyButton>
        </Tabs.Panel>
      ))}
    </Tabs>
  );
}
