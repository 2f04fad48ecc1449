import { describe, expect, it } from 'vitest';
import type { TryoutHistoryItem } from '../../lib/store';
import { capHistory, deleteAll, exportItems, importItems, nextFailureStreak, sortHistory } from './history';
import { TRYOUT_HISTORY_LIMIT } from '@portico/contracts/tryout';

function item(overrides: Partial<TryoutHistoryItem> = {}): TryoutHistoryItem {
  return {
    uuid: crypto.randomUUID(),
    documentationId: 'accounts-v1',
    method: 'get',
    path: '/accounts',
    description: 'List accounts',
    form: { header: {}, query: {}, path: {}, body: '' },
    response: { status: 200, data: [] },
    created: 1,
    favorite: false,
    imported: false,
    fromTour: false,
    ...overrides,
  };
}

describe('try-out history rules', () => {
  it('pins favorites, then newest first; Delete All keeps favorites', () => {
    const old = item({ created: 1 });
    const fresh = item({ created: 5 });
    const fav = item({ created: 0, favorite: true });
    expect(sortHistory([old, fresh, fav]).map((i) => i.uuid)).toEqual([fav.uuid, fresh.uuid, old.uuid]);
    expect(deleteAll([old, fresh, fav])).toEqual([fav]);
  });

  it('caps the history without dropping favorites', () => {
    const items = Array.from({ length: TRYOUT_HISTORY_LIMIT + 5 }, (_, i) => item({ created: i }));
    items[0]!.favorite = true;
    const kept = capHistory(items);
    expect(kept).toHaveLength(TRYOUT_HISTORY_LIMIT);
    expect(kept.some((i) => i.uuid === items[0]!.uuid)).toBe(true);
    expect(kept.some((i) => i.uuid === items[1]!.uuid)).toBe(false);
  });

  it('exports selected items only, at least one', () => {
    const a = item();
    const b = item();
    expect(exportItems([a, b], new Set())).toEqual({ ok: false, error: 'noSelection' });
    const result = exportItems([a, b], new Set([b.uuid]));
    expect(result.ok && JSON.parse(result.json)).toEqual([b]);
  });

  it('imports JSON arrays, keeping items of this documentation with method and path', () => {
    expect(importItems('{nope', 'accounts-v1')).toEqual({ ok: false, error: 'unreadable' });
    expect(importItems('{"a":1}', 'accounts-v1')).toEqual({ ok: false, error: 'unreadable' });
    expect(importItems('[]', 'accounts-v1')).toEqual({ ok: false, error: 'nothingToImport' });
    const file = JSON.stringify([
      item({ favorite: true }),
      item({ documentationId: 'other' }),
      { ...item(), method: '' },
      { ...item(), path: undefined },
    ]);
    const result = importItems(file, 'accounts-v1', 42, () => 'new-id');
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.items).toHaveLength(1);
    expect(result.items[0]).toMatchObject({ uuid: 'new-id', imported: true, favorite: true, method: 'get' });
  });

  it('opens the help dialog on the third identical failure in a row', () => {
    let streak = { signature: null as string | null, count: 0 };
    const fail = { ok: false as const, signature: '401\n{"error":"invalid_token"}' };
    const opened: boolean[] = [];
    for (const outcome of [fail, fail, { ok: true as const }, fail, fail, fail, fail]) {
      const next = nextFailureStreak(streak, outcome);
      streak = next.streak;
      opened.push(next.openHelp);
    }
    expect(opened).toEqual([false, false, false, false, false, true, false]);
    const other = nextFailureStreak({ signature: 'a', count: 2 }, { ok: false, signature: 'b' });
    expect(other).toEqual({ streak: { signature: 'b', count: 1 }, openHelp: false });
  });
});
