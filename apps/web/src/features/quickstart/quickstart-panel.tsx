import {
  ActionIcon,
  Badge,
  Button,
  CloseButton,
  Group,
  Progress,
  Stack,
  Text,
  Title,
  Tooltip,
} from '@mantine/core';
import { IconLayoutBottombar, IconLayoutSidebar } from '@tabler/icons-react';
import {
  progressPercent,
  QUICKSTART_DOCK_BOTTOM_HEIGHT_PERCENT,
  QUICKSTART_DOCK_LEFT_PX,
  QUICKSTART_SIDEBAR_WIDTH_PERCENT,
  QUICKSTART_START_DELAY_MS,
  storiesFor,
} from '@portico/contracts/quickstart';
import { useEffect, useMemo, type CSSProperties } from 'react';
import { messageOf } from '../../lib/api-client';
import { useTranslation } from '../../lib/i18n';
import { useAppStore } from '../../lib/store';
import { langOf } from '../../components/content/translation';
import { useStories, type TranslatedStory } from './api';
import { useQuickstartStore } from '../../lib/quickstart-store';
import { TourRunner } from './tour-runner';
import classes from './quickstart.module.css';

/** The stories as this visitor sees them: the server's flags when signed in, local ones otherwise. */
function useVisibleStories() {
  const stories = useStories();
  const loggedIn = useAppStore((s) => s.applicationUser.isLoggedIn);
  const local = useQuickstartStore((s) => s.anonymousCompleted);
  const list = useMemo<TranslatedStory[]>(() => {
    const data = stories.data ?? [];
    // An anonymous visitor's completed stories live in the browser (spec B 4), in the Quick Start
    // store, which signing in and out leaves as it was.
    const completed = new Set(loggedIn ? data.filter((s) => s.completed).map((s) => s.uuid) : local);
    return storiesFor(data, loggedIn, completed);
  }, [stories.data, loggedIn, local]);
  const percent = useMemo(
    () => progressPercent(list, loggedIn, new Set(list.filter((s) => s.completed).map((s) => s.uuid))),
    [list, loggedIn],
  );
  return { query: stories, list, percent };
}

function sidebarStyle(running: boolean, dock: 'left' | 'bottom'): CSSProperties {
  if (!running) return { left: 0, top: 0, bottom: 0, width: `${QUICKSTART_SIDEBAR_WIDTH_PERCENT}%` };
  if (dock === 'left') return { left: 0, top: 0, bottom: 0, width: QUICKSTART_DOCK_LEFT_PX };
  return { left: 0, right: 0, bottom: 0, height: `${QUICKSTART_DOCK_BOTTOM_HEIGHT_PERCENT}%` };
}

/**
 * The Quick Start sidebar (spec B 2.15): the stories with their progress, started from here;
 * 25% of the width, docked left (335 px) or at the bottom (20% of the height) while a story runs.
 * Also runs a documentation's own tour ('Take the tour'), without the sidebar.
 */
export default function QuickstartPanel() {
  const { t } = useTranslation();
  const open = useQuickstartStore((s) => s.open);
  const active = useQuickstartStore((s) => s.active);
  const dock = useQuickstartStore((s) => s.dock);
  const { query, list, percent } = useVisibleStories();
  const running = active?.kind === 'story';
  const style = sidebarStyle(running, dock);

  // The page makes room for the sidebar.
  useEffect(() => {
    if (!open) return;
    const body = document.body.style;
    if (style.width !== undefined)
      body.paddingLeft = typeof style.width === 'number' ? `${style.width}px` : String(style.width);
    else body.paddingBottom = String(style.height);
    return () => {
      body.paddingLeft = '';
      body.paddingBottom = '';
    };
  }, [open, style.width, style.height]);

  const start = (story: TranslatedStory) => {
    // Spec B 9: the tour starts 0.6 s after it is asked for (the sidebar settles first).
    window.setTimeout(
      () =>
        useQuickstartStore.getState().start({
          kind: 'story',
          uuid: story.uuid,
          title: story.title,
          steps: story.steps,
          lang: langOf(story.translation),
        }),
      QUICKSTART_START_DELAY_MS,
    );
  };

  return (
    <>
      {open && (
        <aside
          className={classes.sidebar}
          style={style}
          aria-labelledby="quickstart-title"
          data-testid="quickstart-sidebar"
          data-dock={running ? dock : 'sidebar'}
        >
          <Group justify="space-between" wrap="nowrap" mb="sm">
            <Title order={2} size="h4" id="quickstart-title">
              {t('quickstart.title')}
            </Title>
            <Group gap={4} wrap="nowrap">
              <ActionIcon
                variant={dock === 'left' ? 'light' : 'subtle'}
                aria-label={t('quickstart.dockLeft')}
                aria-pressed={dock === 'left'}
                onClick={() => useQuickstartStore.getState().setDock('left')}
              >
                <IconLayoutSidebar size={18} />
              </ActionIcon>
              <ActionIcon
                variant={dock === 'bottom' ? 'light' : 'subtle'}
                aria-label={t('quickstart.dockBottom')}
                aria-pressed={dock === 'bottom'}
                onClick={() => useQuickstartStore.getState().setDock('bottom')}
              >
                <IconLayoutBottombar size={18} />
              </ActionIcon>
              <CloseButton
                aria-label={t('quickstart.close')}
                onClick={() => useQuickstartStore.getState().closeSidebar()}
              />
            </Group>
          </Group>
          <Progress value={percent} aria-label={t('quickstart.title')} mb={4} />
          <Text size="sm" mb="md" data-testid="quickstart-progress">
            {t('quickstart.progress', { percent })}
          </Text>
          {query.isError && (
            <Text c="red.8" size="sm" role="alert">
              {messageOf(query.error, t('quickstart.loadFailed'))}
            </Text>
          )}
          <Stack gap="xs" component="ol" className={classes.stories}>
            {list.map((story) => (
              <li
                key={story.uuid}
                className={classes.story}
                data-testid="quickstart-story"
                data-story={story.uuid}
              >
                <Group justify="space-between" wrap="nowrap" align="center">
                  <div>
                    <Text fw={600} size="sm" lang={langOf(story.translation)}>
                      {story.title}
                    </Text>
                    <Text size="xs" c="dimmed">
                      {t('quickstart.steps', { steps: story.steps.length })}
                    </Text>
                  </div>
                  {story.completed && (
                    <Badge color="green" variant="light">
                      {t('quickstart.completed')}
                    </Badge>
                  )}
                  {story.disabled ? (
                    <Tooltip label={t('quickstart.disabledTooltip')} withArrow multiline w={220}>
                      <Button
                        size="xs"
                        variant="default"
                        data-disabled
                        aria-disabled
                        onClick={(e) => e.preventDefault()}
                      >
                        {t('quickstart.start')}
                      </Button>
                    </Tooltip>
                  ) : (
                    <Button
                      size="xs"
                      variant={active?.kind === 'story' && active.uuid === story.uuid ? 'filled' : 'light'}
                      onClick={() => start(story)}
                    >
                      {story.completed ? t('quickstart.restart') : t('quickstart.start')}
                    </Button>
                  )}
                </Group>
              </li>
            ))}
          </Stack>
          <Button
            variant="subtle"
            color="gray"
            size="xs"
            mt="md"
            onClick={() => useQuickstartStore.getState().cancel()}
          >
            {t('quickstart.cancelTour')}
          </Button>
        </aside>
      )}
      {active && <TourRunner key={active.kind === 'story' ? active.uuid : active.title} tour={active} />}
    </>
  );
}
