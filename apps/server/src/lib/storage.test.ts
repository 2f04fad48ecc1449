import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../test/free-port.ts';
import { S3_CREDENTIALS, startS3Server, type TestS3Server } from '../../test/s3-server.ts';
import { createS3Storage, type S3Settings } from './s3-storage.ts';
import { createLocalStorage, storageKeyFor, StorageUnavailableError, type FileStorage } from './storage.ts';

const dirs: string[] = [];
const tempRoot = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portico-storage-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

/** The bytes of a stream, and in how many chunks they came. */
async function readChunks(stream: Readable): Promise<{ data: Buffer; chunks: number }> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(Buffer.from(c as Buffer));
  return { data: Buffer.concat(chunks), chunks: chunks.length };
}
const read = async (stream: Readable | undefined) => (await readChunks(stream!)).data.toString('utf8');

let s3: TestS3Server;
beforeAll(async () => {
  s3 = await startS3Server();
});
afterAll(async () => {
  await s3?.close();
});

const s3Settings = (overrides: Partial<S3Settings> = {}): S3Settings => ({
  bucket: s3.bucket,
  prefix: '',
  region: 'us-east-1',
  endpoint: s3.endpoint,
  forcePathStyle: true,
  credentials: S3_CREDENTIALS,
  ...overrides,
});

const uuid = () => crypto.randomUUID();

/** The contract every storage keeps, whatever holds the bytes. */
describe.each([
  {
    backend: 'folder',
    open: (): FileStorage => {
      const root = fs.mkdtempSync(path.join(os.tmpdir(), 'portico-storage-'));
      const storage = createLocalStorage(root);
      return { ...storage, close: async () => fs.rmSync(root, { recursive: true, force: true }) };
    },
  },
  { backend: 'S3', open: (): FileStorage => createS3Storage(s3Settings({ prefix: `${uuid()}/` })) },
])('file storage contract: $backend', ({ open }) => {
  let storage: FileStorage;
  beforeAll(() => {
    storage = open();
  });
  afterAll(async () => {
    await storage.close();
  });

  it('is usable', async () => {
    await storage.check();
  });

  it('stores, reads and deletes by key; a missing file reads as undefined and deletes quietly', async () => {
    const key = storageKeyFor(uuid());
    await storage.put(key, Buffer.from('hello'));
    expect(await read(await storage.get(key))).toBe('hello');
    await storage.delete(key);
    expect(await storage.get(key)).toBeUndefined();
    await storage.delete(key);
    expect(await storage.get(storageKeyFor(uuid()))).toBeUndefined();
  });

  it('keeps binary content byte for byte and streams a big file in chunks', async () => {
    const key = storageKeyFor(uuid());
    const data = randomBytes(3 * 1024 * 1024);
    await storage.put(key, data);
    const { data: back, chunks } = await readChunks((await storage.get(key))!);
    expect(back.equals(data)).toBe(true);
    // Streamed, not handed over as one buffer.
    expect(chunks).toBeGreaterThan(1);
    await storage.delete(key);
  });

  it('keeps files apart by key', async () => {
    const a = storageKeyFor(uuid());
    const b = storageKeyFor(uuid());
    await storage.put(a, Buffer.from('a'));
    await storage.put(b, Buffer.from('b'));
    await storage.delete(a);
    expect(await storage.get(a)).toBeUndefined();
    expect(await read(await storage.get(b))).toBe('b');
  });

  it('refuses keys that are not ours', async () => {
    for (const key of ['../x', 'a/../../x', '/etc/passwd', 'A B', '', 'a//b']) {
      await expect(storage.put(key, Buffer.from('x'))).rejects.toThrow(/Invalid storage key/);
      await expect(storage.get(key)).rejects.toThrow(/Invalid storage key/);
      await expect(storage.delete(key)).rejects.toThrow(/Invalid storage key/);
    }
  });
});

describe('local file storage', () => {
  it('names files by their sharded key and leaves no temporary file', async () => {
    const root = tempRoot();
    const storage = createLocalStorage(root);
    const key = storageKeyFor('0f8fad5b-d9cb-469f-a165-70867728950e');
    expect(key).toBe('0f/0f8fad5b-d9cb-469f-a165-70867728950e');
    await storage.put(key, Buffer.from('hello'));
    expect(fs.readFileSync(path.join(root, key), 'utf8')).toBe('hello');
    expect(fs.readdirSync(path.join(root, '.tmp'))).toEqual([]);
  });

  it('removes stale partial writes on start', () => {
    const root = tempRoot();
    fs.mkdirSync(path.join(root, '.tmp'), { recursive: true });
    const stale = path.join(root, '.tmp', 'old.part');
    const fresh = path.join(root, '.tmp', 'new.part');
    fs.writeFileSync(stale, 'x');
    fs.writeFileSync(fresh, 'y');
    const past = new Date(Date.now() - 2 * 3600_000);
    fs.utimesSync(stale, past, past);
    createLocalStorage(root);
    expect(fs.existsSync(stale)).toBe(false);
    expect(fs.existsSync(fresh)).toBe(true);
  });
});

describe('S3 storage', () => {
  it('keeps the objects under the prefix of STORAGE_URL', async () => {
    const prefix = `portal/${uuid()}/`;
    const storage = createS3Storage(s3Settings({ prefix }));
    const whole = createS3Storage(s3Settings());
    try {
      const key = storageKeyFor(uuid());
      await storage.put(key, Buffer.from('under the prefix'));
      expect(await read(await whole.get(`${prefix}${key}`))).toBe('under the prefix');
      expect(await whole.get(key)).toBeUndefined();
    } finally {
      await storage.close();
      await whole.close();
    }
  });

  it('says what is wrong when the bucket cannot be used', async () => {
    const cases: [Partial<S3Settings>, RegExp][] = [
      [{ bucket: 'no-such-bucket' }, /cannot use the bucket no-such-bucket: no such bucket/],
      [
        { credentials: { accessKeyId: 'WRONG', secretAccessKey: 'WRONG' } },
        /cannot use the bucket portico-test: access denied/,
      ],
    ];
    for (const [overrides, message] of cases) {
      const storage = createS3Storage(s3Settings(overrides));
      try {
        const failure = storage.check();
        await expect(failure).rejects.toBeInstanceOf(StorageUnavailableError);
        await expect(failure).rejects.toThrow(message);
      } finally {
        await storage.close();
      }
    }
  });

  it('fails the check when nothing answers at the endpoint', async () => {
    // A port that was free a moment ago: the connection is refused.
    const storage = createS3Storage(s3Settings({ endpoint: `http://127.0.0.1:${await freePort()}` }));
    try {
      await expect(storage.check()).rejects.toBeInstanceOf(StorageUnavailableError);
    } finally {
      await storage.close();
    }
  });
});
