import {
  Alert,
  Anchor,
  Badge,
  Box,
  Button,
  Container,
  Group,
  Modal,
  Pagination,
  Paper,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { lazy, Suspense, useId, useRef, useState, type FormEvent } from 'react';
import { Link, useLocation, useNavigate, useParams } from 'react-router';
import { FORUM_COMMENTS_PAGE_SIZE } from '@portico/contracts/forum';
import { RoleGuard } from '../../components/require-login';
import { HtmlContent } from '../../components/ui/html-content';
import { Loading } from '../../components/ui/loading';
import { PageBreadcrumbs } from '../../components/ui/page-breadcrumbs';
import { PageTitle } from '../../components/ui/page-title';
import { loginPath, paths } from '../../config/paths';
import { ApiError, messageOf } from '../../lib/api-client';
import { useTranslation } from '../../lib/i18n';
import { afterPress } from '../../lib/touched';
import { useUser } from '../../lib/store';
import {
  createComment,
  deleteComment,
  deleteTopic,
  moderateComment,
  moderateTopic,
  setSubscription,
  useComments,
  useInvalidateForum,
  useTopic,
  type Comment,
  type TopicDocument,
} from './api';
import { when } from './parts';

// The editor is its own chunk, loaded when the comment form shows.
const RichTextField = lazy(() => import('../../components/ui/rich-text-editor'));

/** /forum-topic/:forum_id (spec B 2.13, 4): the topic, threaded comments, search, reply with a quote. */
export default function TopicPage() {
  return (
    <RoleGuard>
      <TopicView />
    </RoleGuard>
  );
}

function TopicView() {
  const { t } = useTranslation();
  const { forum_id: topicId = '' } = useParams();
  const topic = useTopic(topicId);
  if (topic.isPending) return <Loading />;
  if (topic.isError)
    return (
      <Container size="lg" py="xl">
        <Alert
          color={topic.error instanceof ApiError && topic.error.status === 404 ? 'yellow' : 'red'}
          role="alert"
        >
          {messageOf(topic.error, t('forum.loadFailed'))}
        </Alert>
        <Anchor component={Link} to={paths.forum} mt="md" display="inline-block">
          {t('forum.backToForum')}
        </Anchor>
      </Container>
    );
  return <TopicBody doc={topic.data} />;
}

function TopicBody({ doc }: { doc: TopicDocument }) {
  const { t } = useTranslation();
  const user = useUser();
  const topic = doc.data;
  const a = topic.attributes;
  const moderator = doc.meta.moderator;
  const [search, setSearch] = useState('');
  const [searchText, setSearchText] = useState('');
  const [page, setPage] = useState(0);
  const [replyTo, setReplyTo] = useState<Comment | null>(null);
  const formRef = useRef<HTMLDivElement>(null);
  const comments = useComments(topic.id, search, page);
  const count = comments.data?.meta.count ?? 0;
  const pages = Math.ceil(count / FORUM_COMMENTS_PAGE_SIZE);
  const byId = new Map((comments.data?.data ?? []).map((c) => [c.id, c]));

  const startReply = (c: Comment) => {
    setReplyTo(c);
    // The form is below the list: bring it into view and put the cursor in the editor.
    requestAnimationFrame(() => {
      formRef.current?.scrollIntoView({ block: 'center' });
      formRef.current?.querySelector<HTMLElement>('[role="textbox"]')?.focus();
    });
  };

  return (
    <Container size="lg" py="xl">
      <PageBreadcrumbs
        items={[
          { title: t('forum.title'), to: paths.forum },
          { title: doc.meta.forum.name, to: paths.forumOf(doc.meta.forum.uuid) },
          { title: a.title },
        ]}
      />
      <Group justify="space-between" align="flex-start">
        <Box>
          <PageTitle mb={4}>{a.title}</PageTitle>
          <Group gap="xs" mb="md">
            <Text size="sm" c="dimmed">
              {t('forum.byAuthor', { name: a.author_name ?? t('forum.anonymousAuthor') })} · {when(a.created)}
            </Text>
            {a.sticky && <Badge size="sm">{t('forum.pinned')}</Badge>}
            {a.locked && (
              <Badge size="sm" color="gray">
                {t('forum.locked')}
              </Badge>
            )}
            {!a.status && (
              <Badge size="sm" color="red">
                {t('forum.hidden')}
              </Badge>
            )}
          </Group>
        </Box>
        {user.isLoggedIn && user.uuid && (
          <SubscribeTopic topicId={topic.id} userUuid={user.uuid} subscribed={doc.meta.subscribed} />
        )}
      </Group>
      {moderator && <TopicModeration doc={doc} />}
      <Paper withBorder p="md" mb="xl">
        <HtmlContent html={a.body.processed} data-testid="topic-body" />
      </Paper>

      <section aria-labelledby="comments-title">
        <Group justify="space-between" align="flex-end" mb="md">
          <Title order={2} id="comments-title" size="h3">
            {t('forum.comments')} ({a.comment_forum.comment_count})
          </Title>
          <form
            role="search"
            style={{ display: 'flex', gap: 8, alignItems: 'flex-end' }}
            onSubmit={(e) => {
              e.preventDefault();
              setSearch(searchText.trim());
              setPage(0);
            }}
          >
            <TextInput
              label={t('forum.searchComments')}
              placeholder={t('forum.searchCommentsPlaceholder')}
              type="search"
              value={searchText}
              onChange={(e) => setSearchText(e.currentTarget.value)}
            />
            <Button type="submit" variant="light">
              {t('forum.searchButton')}
            </Button>
            {search && (
              <Button
                variant="subtle"
                onClick={() => {
                  setSearch('');
                  setSearchText('');
                  setPage(0);
                }}
              >
                {t('forum.clearSearch')}
              </Button>
            )}
          </form>
        </Group>
        {comments.isPending ? (
          <Loading />
        ) : comments.isError ? (
          <Alert color="red" role="alert">
            {messageOf(comments.error, t('forum.loadFailed'))}
          </Alert>
        ) : comments.data.data.length === 0 ? (
          <Text role="status">{search ? t('forum.noResults') : t('forum.noComments')}</Text>
        ) : (
          <Stack gap="sm" data-testid="comment-list">
            {comments.data.data.map((c) => (
              <CommentItem
                key={c.id}
                comment={c}
                parent={parentOf(c, byId)}
                canReply={user.isLoggedIn && !a.locked}
                moderator={moderator}
                onReply={() => startReply(c)}
              />
            ))}
          </Stack>
        )}
        {pages > 1 && (
          <Pagination
            mt="md"
            total={pages}
            value={page + 1}
            onChange={(p) => setPage(p - 1)}
            aria-label={t('forum.pagination')}
            getControlProps={(control) => ({ 'aria-label': `${control} page` })}
          />
        )}
      </section>

      <Box ref={formRef} mt="xl">
        {!user.isLoggedIn ? (
          <Text>
            <Anchor component={Link} to={loginPath(paths.forumTopic(topic.id))}>
              {t('forum.loginToComment')}
            </Anchor>
          </Text>
        ) : a.locked ? (
          <Alert color="gray" role="status">
            {t('forum.lockedNotice')}
          </Alert>
        ) : (
          <CommentForm
            topicId={topic.id}
            userUuid={user.uuid}
            replyTo={replyTo}
            onCancelReply={() => setReplyTo(null)}
            onSaved={(total) => {
              setReplyTo(null);
              setSearch('');
              setSearchText('');
              // The new comment is the last one: show the last page.
              setPage(Math.max(0, Math.ceil(total / FORUM_COMMENTS_PAGE_SIZE) - 1));
            }}
            count={search ? a.comment_forum.comment_count : count}
          />
        )}
      </Box>
    </Container>
  );
}

function parentOf(c: Comment, byId: Map<string, Comment>): { name: string | null; id: string } | null {
  const ref = c.relationships.pid?.data;
  if (!ref || Array.isArray(ref)) return null;
  return { id: ref.id, name: byId.get(ref.id)?.attributes.author_name ?? null };
}

function CommentItem({
  comment,
  parent,
  canReply,
  moderator,
  onReply,
}: {
  comment: Comment;
  parent: { name: string | null; id: string } | null;
  canReply: boolean;
  moderator: boolean;
  onReply(): void;
}) {
  const { t } = useTranslation();
  const a = comment.attributes;
  const headingId = useId();
  return (
    <Paper
      component="article"
      aria-labelledby={headingId}
      withBorder
      p="md"
      ml={parent ? 'xl' : 0}
      style={a.status ? undefined : { opacity: 0.6 }}
      data-testid="comment"
    >
      <Group justify="space-between" mb={4}>
        <Text fw={600} id={headingId}>
          {a.subject || t('forum.comment')}
        </Text>
        <Text size="xs" c="dimmed">
          {t('forum.byAuthor', { name: a.author_name ?? t('forum.anonymousAuthor') })} · {when(a.created)}
        </Text>
      </Group>
      {parent && (
        <Text size="xs" c="dimmed" mb={4}>
          {t('forum.inReplyTo', { name: parent.name ?? t('forum.comment') })}
        </Text>
      )}
      {!a.status && (
        <Badge size="xs" color="red" mb={4}>
          {t('forum.hiddenNotice')}
        </Badge>
      )}
      <HtmlContent html={a.comment_body.processed} />
      {(canReply || moderator) && (
        <Group gap="xs" mt="xs">
          {canReply && (
            <Button
              size="xs"
              variant="light"
              onClick={onReply}
              aria-label={`${t('forum.reply')}: ${a.subject}`}
            >
              {t('forum.reply')}
            </Button>
          )}
          {moderator && <CommentModeration comment={comment} />}
        </Group>
      )}
    </Paper>
  );
}

function SubscribeTopic({
  topicId,
  userUuid,
  subscribed,
}: {
  topicId: string;
  userUuid: string;
  subscribed: boolean;
}) {
  const { t } = useTranslation();
  const invalidate = useInvalidateForum();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const toggle = async () => {
    setBusy(true);
    setError(null);
    try {
      await setSubscription('node', topicId, userUuid, !subscribed);
      await invalidate();
    } catch (err) {
      setError(messageOf(err, t('forum.loadFailed')));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Stack gap={4} align="flex-end">
      <Button variant="outline" onClick={() => void toggle()} loading={busy} aria-pressed={subscribed}>
        {subscribed ? t('forum.unsubscribe') : t('forum.subscribe')}
      </Button>
      {subscribed && <Text size="xs">{t('forum.subscribedNote')}</Text>}
      <ActionError error={error} />
    </Stack>
  );
}

/** Escapes text for the quote put into the editor. */
function escapeText(text: string): string {
  return text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);
}

function CommentForm({
  topicId,
  userUuid,
  replyTo,
  onCancelReply,
  onSaved,
  count,
}: {
  topicId: string;
  userUuid: string | null;
  replyTo: Comment | null;
  onCancelReply(): void;
  onSaved(total: number): void;
  count: number;
}) {
  const { t } = useTranslation();
  const invalidate = useInvalidateForum();
  const [subject, setSubject] = useState('');
  const [body, setBody] = useState('');
  const [touched, setTouched] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  // A new key remounts the editor: cleared after saving, pre-filled with a quote on reply.
  const [editorKey, setEditorKey] = useState(0);
  const [initial, setInitial] = useState('');
  const [quoted, setQuoted] = useState<string | null>(null);
  const errorId = useId();

  if (replyTo && quoted !== replyTo.id) {
    const name = replyTo.attributes.author_name ?? t('forum.anonymousAuthor');
    const quote = `<blockquote><p><strong>${escapeText(t('forum.wrote', { name }))}</strong></p>${replyTo.attributes.comment_body.processed}</blockquote><p></p>`;
    setQuoted(replyTo.id);
    setInitial(quote);
    setBody(quote);
    setEditorKey((k) => k + 1);
  }
  if (!replyTo && quoted !== null) setQuoted(null);

  const empty = body.replace(/<[^>]*>/g, '').trim() === '';
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setTouched(true);
    setSaved(false);
    if (empty) return;
    setBusy(true);
    setError(null);
    try {
      await createComment({
        topicId,
        body,
        subject: subject.trim(),
        parentId: replyTo?.id ?? null,
        userUuid,
      });
      setSubject('');
      setBody('');
      setInitial('');
      setTouched(false);
      setEditorKey((k) => k + 1);
      setSaved(true);
      onSaved(count + 1);
      await invalidate();
    } catch (err) {
      setError(messageOf(err, t('forum.loadFailed')));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form onSubmit={(e) => void submit(e)} noValidate aria-labelledby="add-comment-title">
      <Title order={2} size="h3" id="add-comment-title" mb="sm">
        {t('forum.addComment')}
      </Title>
      {replyTo && (
        <Group gap="xs" mb="sm">
          <Text size="sm" data-testid="replying-to">
            {t('forum.replyingTo', { name: replyTo.attributes.author_name ?? t('forum.anonymousAuthor') })}
          </Text>
          <Button size="xs" variant="subtle" onClick={onCancelReply}>
            {t('forum.cancelReply')}
          </Button>
        </Group>
      )}
      <Stack gap="sm">
        <TextInput
          label={t('forum.subject')}
          value={subject}
          maxLength={64}
          onChange={(e) => setSubject(e.currentTarget.value)}
        />
        <div>
          <Text component="span" size="sm" fw={500} id={`${errorId}-label`}>
            {t('forum.comment')}
          </Text>
          <Suspense fallback={<Loading />}>
            <RichTextField
              key={editorKey}
              label={t('forum.comment')}
              initialValue={initial}
              onChange={setBody}
              onBlur={() => afterPress(() => setTouched(true))}
              invalid={touched && empty}
              describedBy={touched && empty ? errorId : undefined}
            />
          </Suspense>
          {touched && empty && (
            <Text c="red" size="sm" id={errorId}>
              {t('forum.commentRequired')}
            </Text>
          )}
        </div>
        {error && (
          <Alert color="red" role="alert">
            {error}
          </Alert>
        )}
        {saved && (
          <Text role="status" c="green.9">
            {t('forum.commentSaved')}
          </Text>
        )}
        <Group>
          <Button type="submit" loading={busy}>
            {t('forum.saveComment')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** Runs a moderation action, then refreshes the forum's data; keeps the error to show. */
function useModeration() {
  const { t } = useTranslation();
  const invalidate = useInvalidateForum();
  const [error, setError] = useState<string | null>(null);
  const run = async (action: () => Promise<unknown>) => {
    setError(null);
    try {
      await action();
      await invalidate();
    } catch (err) {
      setError(messageOf(err, t('forum.loadFailed')));
    }
  };
  return { error, run };
}

function ActionError({ error }: { error: string | null }) {
  return error ? (
    <Text c="red" size="sm" role="alert">
      {error}
    </Text>
  ) : null;
}

/** The Delete button of a topic or comment, and the question it asks first: Cancel or Delete. */
function DeleteWithConfirm({
  question,
  label,
  run,
  onDelete,
  onDeleted,
}: {
  question: string;
  label?: string;
  run: ReturnType<typeof useModeration>['run'];
  onDelete(): Promise<unknown>;
  onDeleted?(): void;
}) {
  const { t } = useTranslation();
  const [opened, setOpened] = useState(false);
  return (
    <>
      <Button size="xs" color="red" variant="light" aria-label={label} onClick={() => setOpened(true)}>
        {t('forum.delete')}
      </Button>
      <Modal opened={opened} onClose={() => setOpened(false)} title={t('forum.delete')}>
        <Text mb="md">{question}</Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={() => setOpened(false)}>
            {t('forum.cancel')}
          </Button>
          <Button
            color="red"
            onClick={() =>
              void run(async () => {
                await onDelete();
                setOpened(false);
                onDeleted?.();
              })
            }
          >
            {t('forum.delete')}
          </Button>
        </Group>
      </Modal>
    </>
  );
}

function TopicModeration({ doc }: { doc: TopicDocument }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const a = doc.data.attributes;
  const { error, run } = useModeration();
  return (
    <Paper withBorder p="sm" mb="md" aria-label={t('forum.moderation')} component="section">
      <Group gap="xs">
        <Text size="sm" fw={600}>
          {t('forum.moderation')}
        </Text>
        <Button
          size="xs"
          variant="light"
          onClick={() => void run(() => moderateTopic(doc.data.id, { sticky: !a.sticky }))}
        >
          {a.sticky ? t('forum.unpin') : t('forum.pin')}
        </Button>
        <Button
          size="xs"
          variant="light"
          onClick={() => void run(() => moderateTopic(doc.data.id, { locked: !a.locked }))}
        >
          {a.locked ? t('forum.unlock') : t('forum.lock')}
        </Button>
        <Button
          size="xs"
          variant="light"
          onClick={() => void run(() => moderateTopic(doc.data.id, { status: !a.status }))}
        >
          {a.status ? t('forum.hide') : t('forum.show')}
        </Button>
        <DeleteWithConfirm
          question={t('forum.confirmDeleteTopic')}
          run={run}
          onDelete={() => deleteTopic(doc.data.id)}
          onDeleted={() =>
            void navigate(paths.forumOf(doc.meta.forum.uuid), { replace: true, state: location.state })
          }
        />
      </Group>
      <ActionError error={error} />
    </Paper>
  );
}

function CommentModeration({ comment }: { comment: Comment }) {
  const { t } = useTranslation();
  const { error, run } = useModeration();
  const label = comment.attributes.subject;
  return (
    <>
      <Button
        size="xs"
        variant="light"
        aria-label={`${comment.attributes.status ? t('forum.hide') : t('forum.show')}: ${label}`}
        onClick={() => void run(() => moderateComment(comment.id, !comment.attributes.status))}
      >
        {comment.attributes.status ? t('forum.hide') : t('forum.show')}
      </Button>
      <DeleteWithConfirm
        question={t('forum.confirmDeleteComment')}
        label={`${t('forum.delete')}: ${label}`}
        run={run}
        onDelete={() => deleteComment(comment.id)}
      />
      <ActionError error={error} />
    </>
  );
}
