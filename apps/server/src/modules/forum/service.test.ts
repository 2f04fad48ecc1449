import { describe, expect, it } from 'vitest';
import { HttpError } from '../../lib/errors.ts';
import {
  ancestry,
  cleanBody,
  readUnsubscribeToken,
  subjectFrom,
  unsubscribeToken,
  type ForumRow,
} from './service.ts';

const forum = (id: number, parent: number | null): ForumRow => ({
  id,
  uuid: `00000000-0000-4000-8000-00000000000${id}`,
  name: `Forum ${id}`,
  description: '',
  weight: 0,
  container: false,
  parent_id: parent,
  changed: new Date(0),
});

describe('forum service', () => {
  it('signs unsubscribe tokens that name one subscription and refuses tampered ones', () => {
    const target = { kind: 'topic' as const, id: 7, uuid: '11111111-2222-4333-8444-555555555555', name: 'T' };
    const token = unsubscribeToken('key', 42, target);
    expect(readUnsubscribeToken('key', token)).toEqual({ userId: 42, kind: 'topic', uuid: target.uuid });
    expect(readUnsubscribeToken('other key', token)).toBeUndefined();
    expect(readUnsubscribeToken('key', token.replace('42.', '43.'))).toBeUndefined();
    expect(readUnsubscribeToken('key', token.replace('.topic.', '.forum.'))).toBeUndefined();
    expect(readUnsubscribeToken('key', '')).toBeUndefined();
  });

  it('cleans rich text: scripts and handlers go, an empty result or an oversized input is refused', () => {
    expect(cleanBody('<p onclick="x()">Hi <script>alert(1)</script></p>', 100, 'body', '/b', 'req')).toBe(
      '<p>Hi </p>',
    );
    expect(() => cleanBody('<script>alert(1)</script>', 100, 'body', '/b', 'req')).toThrow(HttpError);
    try {
      cleanBody('x'.repeat(101), 100, 'body', '/b', 'req');
    } catch (err) {
      expect((err as HttpError).status).toBe(413);
      expect((err as HttpError).pointer).toBe('/b');
    }
  });

  it('takes a subject from the body, cut to 64 characters', () => {
    expect(subjectFrom('<p>Short <b>one</b></p>')).toBe('Short one');
    const long = subjectFrom(`<p>${'word '.repeat(40)}</p>`);
    expect(long.length).toBeLessThanOrEqual(64);
    expect(long.endsWith('…')).toBe(true);
  });

  it('walks a forum up to the root, and stops on a loop', () => {
    const forums = [forum(1, null), forum(2, 1), forum(3, 2)];
    expect(ancestry(forums, forums[2]!).map((f) => f.id)).toEqual([3, 2, 1]);
    const loop = [forum(1, 2), forum(2, 1)];
    expect(ancestry(loop, loop[0]!).map((f) => f.id)).toEqual([1, 2]);
  });
});
