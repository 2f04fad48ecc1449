import { describe, expect, it } from 'vitest';
import { CoalescedReader } from '../db/data-versions.ts';
import { matchesEtag, mergeVary, strongEtag } from './http-cache.ts';

describe('matchesEtag', () => {
  const etag = strongEtag('{"data":[]}');
  it('matches the tag, a list naming it, its weak form and *', () => {
    expect(matchesEtag(etag, etag)).toBe(true);
    expect(matchesEtag(`"x", ${etag}`, etag)).toBe(true);
    expect(matchesEtag(`W/${etag}`, etag)).toBe(true);
    expect(matchesEtag('*', etag)).toBe(true);
  });
  it('does not match another tag or nothing', () => {
    expect(matchesEtag(undefined, etag)).toBe(false);
    expect(matchesEtag('"other"', etag)).toBe(false);
    expect(matchesEtag(strongEtag('{"data":[1]}'), etag)).toBe(false);
  });
});

describe('mergeVary', () => {
  it('adds a name to a Vary once, whatever its case, and keeps what was there', () => {
    expect(mergeVary(undefined, 'Cookie')).toBe('Cookie');
    expect(mergeVary('accept-encoding', 'Cookie')).toBe('accept-encoding, Cookie');
    expect(mergeVary(['Accept', 'cookie'], 'Cookie')).toBe('Accept, cookie');
    expect(mergeVary('Accept-Encoding, Accept', 'Cookie')).toBe('Accept-Encoding, Accept, Cookie');
    expect(mergeVary('*', 'Cookie')).toBe('*');
  });
});

describe('CoalescedReader', () => {
  function controlled() {
    const pending: ((v: number) => void)[] = [];
    let n = 0;
    const reader = new CoalescedReader(
      () =>
        new Promise<number>((resolve) => {
          const value = ++n;
          pending.push(() => resolve(value));
        }),
    );
    const finishOne = async () => {
      pending.shift()?.(0);
      await new Promise((r) => setImmediate(r));
    };
    return { reader, finishOne };
  }

  it('never hands a caller a read that started before it called', async () => {
    const { reader, finishOne } = controlled();
    const first = reader.read(); // starts read 1
    const second = reader.read(); // read 1 is under way: waits for read 2
    const third = reader.read(); // shares read 2
    expect(reader.reads).toBe(1);
    await finishOne();
    expect(await first).toBe(1);
    expect(reader.reads).toBe(2);
    await finishOne();
    expect(await second).toBe(2);
    expect(await third).toBe(2);
    expect(reader.reads).toBe(2);
  });

  it('starts a fresh read once the last one is done', async () => {
    const { reader, finishOne } = controlled();
    const a = reader.read();
    await finishOne();
    expect(await a).toBe(1);
    const b = reader.read();
    await finishOne();
    expect(await b).toBe(2);
  });
});
