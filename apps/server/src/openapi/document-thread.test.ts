import { afterEach, describe, expect, it } from 'vitest';
import { DocumentThread } from './document-thread.ts';

const ROUTES = {
  module: new URL('../gateway/document-tasks.ts', import.meta.url),
  name: 'routeTable',
  args: null,
};
const doc = {
  openapi: '3.1.0',
  servers: [{ url: 'https://api.example.com/v1' }],
  paths: { '/accounts': { get: { responses: {} }, post: { responses: {} } }, '/x': { parameters: [] } },
};

describe('the stored documents thread', () => {
  const thread = new DocumentThread();
  afterEach(() => thread.close());

  it('reads a document once for the calls waiting for it, and keeps it', async () => {
    let reads = 0;
    const rows = async () => {
      reads++;
      const text = JSON.stringify(doc);
      return [text.slice(0, 20), text.slice(20)];
    };
    const answers = await Promise.all([1, 2, 3].map(() => thread.run('1:7:h', rows, ROUTES)));
    for (const answer of answers) {
      expect(answer).toEqual({
        openapi: '3.1.0',
        servers: [{ url: 'https://api.example.com/v1' }],
        paths: { '/accounts': { get: {}, post: {} }, '/x': {} },
      });
    }
    expect(reads).toBe(1);
    await thread.run('1:7:h', rows, ROUTES);
    expect(reads).toBe(1);
  });

  it('answers undefined without a stored text, and asks again next time', async () => {
    let reads = 0;
    const none = async () => {
      reads++;
      return [];
    };
    expect(await thread.run('1:8:h', none, ROUTES)).toBeUndefined();
    expect(await thread.run('1:8:h', none, ROUTES)).toBeUndefined();
    expect(reads).toBe(2);
    expect(await thread.run('1:9:h', async () => ['[1, 2]'], ROUTES)).toBeUndefined();
  });

  it('reads the document again once forgotten, or after the thread ended', async () => {
    let reads = 0;
    const rows = async () => {
      reads++;
      return [JSON.stringify(doc)];
    };
    await thread.run('2:1:h', rows, ROUTES);
    await thread.forget('3:');
    await thread.run('2:1:h', rows, ROUTES);
    expect(reads).toBe(1);
    await thread.forget('2:');
    await thread.run('2:1:h', rows, ROUTES);
    expect(reads).toBe(2);
    await thread.close();
    await thread.run('2:1:h', rows, ROUTES);
    expect(reads).toBe(3);
  });

  it('loads task modules ahead of the first task, and says when one cannot be loaded', async () => {
    await thread.warm([ROUTES.module]);
    await expect(thread.warm([new URL('./no-such-module.ts', import.meta.url)])).rejects.toThrow(
      /no-such-module/,
    );
    expect(await thread.run('5:1:h', async () => [JSON.stringify(doc)], ROUTES)).toMatchObject({
      servers: doc.servers,
    });
  });

  it("rejects with the task's error", async () => {
    const rows = async () => [JSON.stringify(doc)];
    await expect(thread.run('4:1:h', rows, { ...ROUTES, name: 'noSuchTask' })).rejects.toThrow(
      /has no task noSuchTask/,
    );
    await expect(thread.run('4:2:h', async () => ['{not json'], ROUTES)).rejects.toThrow(/JSON/);
  });
});
