import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { StorageConfig } from '../config.ts';

/**
 * Where uploaded files live. One interface with two implementations: the local folder of a single
 * machine (DATA_DIR/files, the default) and S3-compatible object storage (STORAGE_URL, s3-storage.ts)
 * that several instances share. Keys are chosen by the server (never from a user's file name):
 * `ab/<uuid>`.
 *
 * Database rows and files change together: callers write the file first, insert the row, and
 * delete the file again when the insert fails; on deletion they remove the rows in a transaction
 * and the files after it commits (a crash in between leaves an unreferenced file, never a row
 * without its file).
 */
export interface FileStorage {
  /** Stores the bytes under key atomically: readers see the whole file or none. */
  put(key: string, data: Buffer): Promise<void>;
  /** A stream of the bytes, or undefined when there is no such file. */
  get(key: string): Promise<Readable | undefined>;
  /** Removes the file; a missing file is not an error. */
  delete(key: string): Promise<void>;
  /** Fails with a message saying what is wrong when the storage cannot be used (checked on start). */
  check(): Promise<void>;
  /** Releases connections; called when the server closes. */
  close(): Promise<void>;
}

/** The configured storage cannot be used (checked on start): the message says why. */
export class StorageUnavailableError extends Error {}

const KEY = /^[a-z0-9][a-z0-9/_-]{0,200}$/;

/** Throws for a key that is not one of ours (a key never comes from a user). */
export function checkStorageKey(key: string): void {
  if (!KEY.test(key) || key.includes('..') || key.includes('//')) {
    throw new Error(`Invalid storage key: ${key}`);
  }
}

/** A storage key for a new file: sharded by the first two characters of its uuid. */
export function storageKeyFor(uuid: string): string {
  return `${uuid.slice(0, 2)}/${uuid}`;
}

/**
 * The storage the configuration names: the folder, or the S3 bucket (its client, about 5 MB of
 * heap, loaded only then). The server's and the commands' one way to open it.
 */
export async function openStorage(settings: StorageConfig): Promise<FileStorage> {
  return settings.kind === 's3'
    ? (await import('./s3-storage.ts')).createS3Storage(settings)
    : createLocalStorage(settings.dir);
}

/** Files in a local folder; writes go to a temporary file in the same folder, then rename. */
export function createLocalStorage(root: string): FileStorage {
  const tmpDir = path.join(root, '.tmp');
  fs.mkdirSync(tmpDir, { recursive: true });
  // Partial writes of a process that died mid-upload: nothing refers to them.
  const stale = Date.now() - 3600_000;
  for (const name of fs.readdirSync(tmpDir)) {
    const file = path.join(tmpDir, name);
    try {
      if (fs.statSync(file).mtimeMs < stale) fs.rmSync(file, { force: true });
    } catch {
      // Removed meanwhile by another instance sharing the folder.
    }
  }
  const fullPath = (key: string) => {
    checkStorageKey(key);
    return path.join(root, key);
  };
  return {
    async put(key, data) {
      const target = fullPath(key);
      await fsp.mkdir(path.dirname(target), { recursive: true });
      const tmp = path.join(tmpDir, `${randomBytes(12).toString('hex')}.part`);
      try {
        const handle = await fsp.open(tmp, 'wx', 0o600);
        try {
          await handle.writeFile(data);
          await handle.sync();
        } finally {
          await handle.close();
        }
        await fsp.rename(tmp, target);
      } catch (err) {
        await fsp.rm(tmp, { force: true });
        throw err;
      }
    },
    async get(key) {
      const target = fullPath(key);
      try {
        const handle = await fsp.open(target, 'r');
        return handle.createReadStream();
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw err;
      }
    },
    async delete(key) {
      await fsp.rm(fullPath(key), { force: true });
    },
    async check() {
      await fsp.access(tmpDir, fs.constants.W_OK);
    },
    async close() {},
  };
}
