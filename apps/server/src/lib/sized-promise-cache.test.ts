import { describe, expect, test } from 'vitest';
import { sizedPromiseCache } from './sized-promise-cache.ts';

/** A load whose promise resolves or rejects when the test says so, counting its calls. */
function deferredLoad<V>() {
  let resolve!: (value: V) => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<V>((yes, no) => {
    resolve = yes;
    reject = no;
  });
  const load = Object.assign(
    () => {
      load.calls++;
      return promise;
    },
    { calls: 0 },
  );
  return { load, resolve, reject, promise };
}

/** A load that resolves at once with `value`, counting its calls. */
function loadOf<V>(value: V) {
  const load = Object.assign(
    () => {
      load.calls++;
      return Promise.resolve(value);
    },
    { calls: 0 },
  );
  return load;
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('sizedPromiseCache', () => {
  test('concurrent gets share one load', async () => {
    const cache = sizedPromiseCache<string>({ maxSize: 100, sizeOf: (v) => v.length });
    const first = deferredLoad<string>();
    const a = cache.get('k', first.load);
    const b = cache.get('k', first.load);
    expect(b).toBe(a);
    first.resolve('value');
    expect(await a).toBe('value');
    expect(await cache.get('k', first.load)).toBe('value');
    expect(first.load.calls).toBe(1);
  });

  test('the size set once a value resolves evicts older entries beyond maxSize', async () => {
    const cache = sizedPromiseCache<string>({ maxSize: 10, sizeOf: (v) => v.length });
    const a = loadOf('aaaaaa');
    const b = loadOf('bbbbbb');
    await cache.get('a', a);
    await settle();
    await cache.get('b', b); // 6 + 6 > 10: 'a', the least recently used, goes
    await settle();
    await cache.get('b', b);
    expect(b.calls).toBe(1);
    await cache.get('a', a);
    expect(a.calls).toBe(2);
  });

  test('while loading, an entry counts as 1', async () => {
    const cache = sizedPromiseCache<string>({ maxSize: 10, sizeOf: (v) => v.length });
    const a = loadOf('aaaaaaaa');
    await cache.get('a', a);
    await settle();
    const pending = [1, 2].map(() => deferredLoad<string>());
    void cache.get('p1', pending[0]!.load);
    void cache.get('p2', pending[1]!.load); // 8 + 1 + 1: all fit
    await cache.get('a', a);
    expect(a.calls).toBe(1);
  });

  test('a rejected load is forgotten and the next get loads again', async () => {
    const cache = sizedPromiseCache<string>({ maxSize: 100, sizeOf: (v) => v.length });
    const failing = deferredLoad<string>();
    const first = cache.get('k', failing.load);
    failing.reject(new Error('no'));
    await expect(first).rejects.toThrow('no');
    await settle();
    const again = loadOf('v');
    expect(await cache.get('k', again)).toBe('v');
    expect(again.calls).toBe(1);
  });

  test('an entry replaced while loading is not resized', async () => {
    const cache = sizedPromiseCache<string>({ maxSize: 10, sizeOf: (v) => v.length });
    const other = loadOf('bbbbb');
    await cache.get('other', other);
    await settle();
    const first = deferredLoad<string>();
    void cache.get('k', first.load);
    cache.delete('k');
    const second = deferredLoad<string>();
    const replacing = cache.get('k', second.load);
    // Had the first been set again with its size (8), it would have taken the key back and
    // evicted 'other' (5 + 8 > 10).
    first.resolve('xxxxxxxx');
    await first.promise;
    await settle();
    expect(cache.get('k', loadOf('unused'))).toBe(replacing);
    await cache.get('other', other);
    expect(other.calls).toBe(1);
  });

  test('set keeps a value at the size given, in place of a loading one', async () => {
    const cache = sizedPromiseCache<string>({ maxSize: 10, sizeOf: (v) => v.length });
    const other = loadOf('bbbbb');
    await cache.get('other', other);
    await settle();
    const loading = deferredLoad<string>();
    void cache.get('k', loading.load);
    const known = Promise.resolve('y');
    cache.set('k', known, 8); // 5 + 8 > 10: 'other' goes
    loading.resolve('z');
    await settle();
    expect(cache.get('k', loadOf('unused'))).toBe(known);
    await cache.get('other', other);
    expect(other.calls).toBe(2);
  });

  test('an undefined value is kept, at size 1', async () => {
    const cache = sizedPromiseCache<string | undefined>({ maxSize: 2, sizeOf: (v) => v.length });
    const none = loadOf(undefined);
    expect(await cache.get('none', none)).toBeUndefined();
    await settle();
    expect(await cache.get('none', none)).toBeUndefined();
    expect(none.calls).toBe(1);
  });

  test('a value bigger than maxSize is dropped once sized; one capped by sizeOf is kept', async () => {
    const dropping = sizedPromiseCache<string>({ maxSize: 4, sizeOf: (v) => v.length });
    const big = loadOf('xxxxxx');
    await dropping.get('k', big);
    await settle();
    await dropping.get('k', big);
    expect(big.calls).toBe(2);
    const capping = sizedPromiseCache<string>({ maxSize: 4, sizeOf: (v) => Math.min(v.length, 4) });
    const capped = loadOf('xxxxxx');
    await capping.get('k', capped);
    await settle();
    await capping.get('k', capped);
    expect(capped.calls).toBe(1);
  });

  test('clear forgets every entry', async () => {
    const cache = sizedPromiseCache<string>({ maxSize: 10, sizeOf: (v) => v.length });
    const a = loadOf('a');
    await cache.get('a', a);
    cache.clear();
    await cache.get('a', a);
    expect(a.calls).toBe(2);
  });
});
