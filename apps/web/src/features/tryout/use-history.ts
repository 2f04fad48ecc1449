import { useCallback, useEffect } from 'react';
import { useAppStore, type TryoutHistoryItem } from '../../lib/store';
import { deleteAllServerHistory, deleteServerHistory, fetchServerHistory, saveServerHistory } from './api';
import { capHistory, deleteAll as keepFavorites } from './history';

function report(err: unknown) {
  // The browser copy stays; the server copy catches up on the next change.
  console.warn('try-out history not saved on the server', err);
}

/**
 * The history of one documentation: the browser store (`tryout`, persisted) and, for signed-in
 * users, the server, written through on every change and read when a panel opens.
 */
export function useTryoutHistory(documentationId: string) {
  const signedIn = useAppStore((s) => s.applicationUser.isLoggedIn);
  const all = useAppStore((s) => s.tryout.history);
  const setTryout = useAppStore((s) => s.setTryout);
  const items = all.filter((i) => i.documentationId === documentationId);

  useEffect(() => {
    if (!signedIn) return;
    let live = true;
    fetchServerHistory(documentationId).then((server) => {
      if (!live) return;
      setTryout((t) => {
        const known = new Map(t.history.map((i) => [i.uuid, i]));
        for (const item of server) known.set(item.uuid, item);
        return { ...t, history: capHistory([...known.values()]) };
      });
    }, report);
    return () => {
      live = false;
    };
  }, [signedIn, documentationId, setTryout]);

  const add = useCallback(
    (added: TryoutHistoryItem[]) => {
      setTryout((t) => ({ ...t, history: capHistory([...added, ...t.history]) }));
      if (signedIn) for (const item of added) saveServerHistory(item).catch(report);
    },
    [signedIn, setTryout],
  );

  const update = useCallback(
    (uuid: string, change: Partial<TryoutHistoryItem>) => {
      let changed: TryoutHistoryItem | undefined;
      setTryout((t) => ({
        ...t,
        history: t.history.map((i) => (i.uuid === uuid ? (changed = { ...i, ...change }) : i)),
      }));
      if (signedIn && changed) saveServerHistory(changed).catch(report);
    },
    [signedIn, setTryout],
  );

  const remove = useCallback(
    (uuid: string) => {
      setTryout((t) => ({ ...t, history: t.history.filter((i) => i.uuid !== uuid) }));
      if (signedIn) deleteServerHistory(uuid).catch(report);
    },
    [signedIn, setTryout],
  );

  const removeAll = useCallback(() => {
    setTryout((t) => ({
      ...t,
      history: [
        ...t.history.filter((i) => i.documentationId !== documentationId),
        ...keepFavorites(t.history.filter((i) => i.documentationId === documentationId)),
      ],
    }));
    if (signedIn) deleteAllServerHistory(documentationId).catch(report);
  }, [signedIn, setTryout, documentationId]);

  return { items, add, update, remove, removeAll };
}
