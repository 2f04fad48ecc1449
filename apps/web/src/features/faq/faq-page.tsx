import { Accordion, Container, Stack, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import { useState } from 'react';
import { RoleGuard } from '../../components/require-login';
import { HtmlContent } from '../../components/ui/html-content';
import { Loading } from '../../components/ui/loading';
import { PageBreadcrumbs } from '../../components/ui/page-breadcrumbs';
import { PageTitle } from '../../components/ui/page-title';
import { langOf } from '../../components/content/translation';
import { TranslationNote } from '../../components/content/translation-note';
import { paths } from '../../config/paths';
import { useTranslation } from '../../lib/i18n';
import { useFaqs } from './api';

/** /faq-page (spec B 2.5): keyword search, categories, accordion questions, uncategorised last. */
export default function FaqPage() {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, 300);
  const faqs = useFaqs(debounced);
  return (
    <RoleGuard>
      <Container size="md" py="xl">
        <PageBreadcrumbs
          items={[{ title: t('content.home'), to: paths.home }, { title: t('content.faqTitle') }]}
        />
        <PageTitle>{t('content.faqTitle')}</PageTitle>
        <TextInput
          label={t('content.searchFaqs')}
          leftSection={<IconSearch size={16} aria-hidden />}
          type="search"
          value={search}
          onChange={(e) => setSearch(e.currentTarget.value)}
          mb="xl"
        />
        {faqs.isPending ? (
          <Loading />
        ) : !faqs.data?.length ? (
          <Text>{t('content.noFaqs')}</Text>
        ) : (
          <Stack gap="xl">
            <TranslationNote
              marker={faqs.data.flatMap((s) => s.faqs).find((f) => f.translation?.fallback)?.translation}
            />
            {faqs.data.map((section) => {
              const name = section.category?.name ?? t('content.otherQuestions');
              const id = `faq-${section.category?.uuid ?? 'other'}`;
              return (
                <section key={id} aria-labelledby={id} data-testid="faq-section">
                  <Title order={2} size="h3" id={id} mb="sm" lang={langOf(section.category?.translation)}>
                    {name}
                  </Title>
                  <Accordion variant="separated" multiple>
                    {section.faqs.map((f) => (
                      <Accordion.Item key={f.uuid} value={f.uuid} lang={langOf(f.translation)}>
                        <Accordion.Control>{f.question}</Accordion.Control>
                        <Accordion.Panel>
                          <HtmlContent html={f.answer} />
                        </Accordion.Panel>
                      </Accordion.Item>
                    ))}
                  </Accordion>
                </section>
              );
            })}
          </Stack>
        )}
      </Container>
    </RoleGuard>
  );
}
