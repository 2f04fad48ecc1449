import { LRUCache } from 'lru-cache';

/**
 * An LRU cache of values still being worked out, bounded by their sizes (lru-cache `maxSize`). A
 * value's promise is kept as soon as its work starts, so that whoever asks for it meanwhile shares
 * that work; it counts as 1 while loading, is set again with its real size once it resolves (which
 * evicts the least recently used entries beyond `maxSize`, or drops a value bigger than `maxSize`
 * alone: a caller that wants such a value kept caps its size in `sizeOf`), and its key is
 * emptied when it rejects, so that the next request works it out again. An undefined value is kept
 * at size 1.
 */
export interface SizedPromiseCache<V> {
  /** The value of `key`: the promise kept, else `load()`'s, kept from now on. */
  get(key: string, load: () => Promise<V>): Promise<V>;
  /** Keeps `value` for `key` (in place of any other) at a size already known; forgotten if it rejects. */
  set(key: string, value: Promise<V>, size: number): void;
  delete(key: string): void;
  clear(): void;
}

export function sizedPromiseCache<V>(options: {
  maxSize: number;
  /** The size of a resolved value, undefined aside (in the unit of `maxSize`). */
  sizeOf: (value: Exclude<V, undefined>) => number;
}): SizedPromiseCache<V> {
  const { sizeOf } = options;
  const cache = new LRUCache<string, Promise<V>>({
    maxSize: options.maxSize,
    // Sized once loaded; an entry still loading counts as small.
    sizeCalculation: () => 1,
  });
  return {
    get(key, load) {
      const hit = cache.get(key);
      if (hit) return hit;
      const loading = load();
      cache.set(key, loading);
      loading.then(
        (value) => {
          // Set again with its real size now that it is known, unless another took its place.
          // Deleted first: lru-cache keeps an entry's size when the same value is set again.
          if (value !== undefined && cache.get(key) === loading) {
            cache.delete(key);
            cache.set(key, loading, { size: Math.max(1, sizeOf(value as Exclude<V, undefined>)) });
          }
        },
        () => cache.delete(key),
      );
      return loading;
    },
    set(key, value, size) {
      cache.set(key, value, { size: Math.max(1, size) });
      value.catch(() => cache.delete(key));
    },
    delete(key) {
      cache.delete(key);
    },
    clear() {
      cache.clear();
    },
  };
}
