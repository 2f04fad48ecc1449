import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createLocalStorage, storageKeyFor } from './storage.ts';

const dirs: string[] = [];
const tempRoot = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portico-storage-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

async function read(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(Buffer.from(c as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}

describe('local file storage', () => {
  it('stores, reads and deletes by key, leaving no temporary file', async () => {
    const root = tempRoot();
    const storage = createLocalStorage(root);
    const key = storageKeyFor('0f8fad5b-d9cb-469f-a165-70867728950e');
    expect(key).toBe('0f/0f8fad5b-d9cb-469f-a165-70867728950e');
    await storage.put(key, Buffer.from('hello'));
    expect(await read((await storage.get(key))!)).toBe('hello');
    expect(fs.readdirSync(path.join(root, '.tmp'))).toEqual([]);
    await storage.delete(key);
    expect(await storage.get(key)).toBeUndefined();
    await storage.delete(key); // a missing file is not an error
  });

  it('refuses keys that could leave the folder', async () => {
    const storage = createLocalStorage(tempRoot());
    for (const key of ['../x', 'a/../../x', '/etc/passwd', 'A B', ''])
      await expect(storage.put(key, Buffer.from('x'))).rejects.toThrow(/Invalid storage key/);
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
