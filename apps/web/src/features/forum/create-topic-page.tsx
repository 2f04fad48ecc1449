import { Alert, Anchor, Box, Button, Container, Stack, Text, TextInput } from '@mantine/core';
import { lazy, Suspense, useId, useState, type FormEvent } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { FORUM_TITLE_MAX } from '@portico/contracts/forum';
import { RequireLogin } from '../../components/require-login';
import { Loading } from '../../components/ui/loading';
import { PageBreadcrumbs } from '../../components/ui/page-breadcrumbs';
import { PageTitle } from '../../components/ui/page-title';
import { paths } from '../../config/paths';
import { messageOf } from '../../lib/api-client';
import { useTranslation } from '../../lib/i18n';
import { useTouched } from '../../lib/touched';
import { createTopic, useForums, useInvalidateForum } from './api';

const RichTextField = lazy(() => import('../../components/ui/rich-text-editor'));

/** /forum-create-topic/:forum_id (spec B 2.13, 5): subject and rich-text body, both required. */
export default function CreateTopicPage() {
  return (
    <RequireLogin>
      <CreateTopic />
    </RequireLogin>
  );
}

function CreateTopic() {
  const { t } = useTranslation();
  const { forum_id: forumId = '' } = useParams();
  const navigate = useNavigate();
  const invalidate = useInvalidateForum();
  const forums = useForums();
  const forum = forums.data?.find((f) => f.uuid === forumId || String(f.tid) === forumId);
  const [subject, setSubject] = useState('');
  const [body, setBody] = useState('');
  const { touched, touch, touchAll } = useTouched<'subject' | 'body'>();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const subjectError = useId();
  const bodyError = useId();
  const subjectEmpty = subject.trim() === '';
  const bodyEmpty = body.replace(/<[^>]*>/g, '').trim() === '';

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    touchAll(['subject', 'body']);
    if (subjectEmpty || bodyEmpty || !forum) return;
    setBusy(true);
    setError(null);
    try {
      const topic = await createTopic(forum.uuid, subject.trim(), body);
      await invalidate();
      void navigate(paths.forumTopic(topic.id));
      // The new page starts at its top (the form may have been scrolled under the sticky header).
      window.scrollTo({ top: 0 });
    } catch (err) {
      setError(messageOf(err, t('forum.loadFailed')));
      setBusy(false);
    }
  };

  const back = forum ? paths.forumOf(forum.uuid) : paths.forum;
  return (
    <Container size="md" py="xl">
      <PageBreadcrumbs
        items={[
          { title: t('forum.title'), to: paths.forum },
          ...(forum ? [{ title: forum.name, to: back }] : []),
          { title: t('forum.createTitle') },
        ]}
      />
      <Anchor component={Link} to={back} mb="md" display="inline-block">
        {t('forum.backToForum')}
      </Anchor>
      <PageTitle>{t('forum.createTitle')}</PageTitle>
      <Alert color="blue" mb="lg" role="note">
        {t('forum.duplicateNote')}
      </Alert>
      {forums.isPending ? (
        <Loading />
      ) : !forum ? (
        <Alert color="yellow" role="alert">
          {t('forum.errors.forumNotFound')}
        </Alert>
      ) : forum.container ? (
        <Alert color="yellow" role="alert">
          {t('forum.errors.container')}
        </Alert>
      ) : (
        <form onSubmit={(e) => void submit(e)} noValidate>
          <Stack gap="md">
            <TextInput
              label={t('forum.subjectLabel')}
              required
              value={subject}
              maxLength={FORUM_TITLE_MAX}
              onChange={(e) => setSubject(e.currentTarget.value)}
              onBlur={() => touch('subject')}
              error={touched.subject && subjectEmpty ? t('forum.required') : undefined}
              aria-describedby={touched.subject && subjectEmpty ? subjectError : undefined}
              errorProps={{ id: subjectError }}
            />
            <Box>
              <Text component="span" size="sm" fw={500}>
                {t('forum.bodyLabel')}{' '}
                <Text component="span" c="red" aria-hidden>
                  *
                </Text>
              </Text>
              <Suspense fallback={<Loading />}>
                <RichTextField
                  label={t('forum.bodyLabel')}
                  initialValue=""
                  onChange={setBody}
                  onBlur={() => touch('body')}
                  invalid={touched.body && bodyEmpty}
                  describedBy={touched.body && bodyEmpty ? bodyError : undefined}
                />
              </Suspense>
              {touched.body && bodyEmpty && (
                <Text c="red" size="sm" id={bodyError}>
                  {t('forum.required')}
                </Text>
              )}
            </Box>
            {error && (
              <Alert color="red" role="alert">
                {error}
              </Alert>
            )}
            <Box>
              <Button type="submit" loading={busy}>
                {t('forum.submitTopic')}
              </Button>
            </Box>
          </Stack>
        </form>
      )}
    </Container>
  );
}
