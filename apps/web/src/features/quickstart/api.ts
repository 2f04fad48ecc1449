import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { QuickstartStory } from '@portico/contracts/quickstart';
import { readerLanguage, type TranslationMarker } from '../../components/content/translation';
import { apiRequest } from '../../lib/api-client';
import { locale } from '../../lib/i18n';
import { useQuickstartStore } from '../../lib/quickstart-store';
import { useAppStore } from '../../lib/store';

/** The Quick Start calls (spec B 7): the stories, and saving the signed-in user's completed ones. */
export const quickstartKeys = {
  stories: (user: string | null) => ['quickstart', 'stories', user, locale] as const,
};

/** A story in the page's language (decision 064): `translation` says which one is shown. */
export type TranslatedStory = QuickstartStory & { translation?: TranslationMarker };

export function useStories() {
  const user = useAppStore((s) => s.applicationUser.uuid);
  return useQuery({
    queryKey: quickstartKeys.stories(user),
    queryFn: async () =>
      (
        await apiRequest<{ data: TranslatedStory[] }>('/getting_started/stories', {
          query: readerLanguage(),
        })
      ).data,
  });
}

/** PATCH /jsonapi/user/user/{uuid} with relation field_completed_stories (the whole list). */
export async function saveCompletedStories(uuid: string, stories: string[]): Promise<void> {
  await apiRequest(`/jsonapi/user/user/${encodeURIComponent(uuid)}`, {
    method: 'PATCH',
    body: {
      data: {
        type: 'user--user',
        id: uuid,
        relationships: {
          field_completed_stories: { data: stories.map((id) => ({ type: 'node--quick_start_story', id })) },
        },
      },
    },
  });
}

/**
 * Marks a story completed: on the user when signed in (then the stories are asked again), in the
 * Quick Start store otherwise, where it outlives a sign-in and sign-out (spec B 4).
 */
export function useCompleteStory() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (story: string) => {
      const { applicationUser, setCompletedStories } = useAppStore.getState();
      if (!applicationUser.isLoggedIn || !applicationUser.uuid) {
        useQuickstartStore.getState().completeAnonymously(story);
        return;
      }
      const stories = [...new Set([...applicationUser.completedStories, story])];
      await saveCompletedStories(applicationUser.uuid, stories);
      setCompletedStories(stories);
    },
    onSettled: () => client.invalidateQueries({ queryKey: ['quickstart'] }),
  });
}
