import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * Exclusive ownership of DATA_DIR for one process.
 *
 * PGlite gives no protection of its own: two processes opening one folder corrupt it, and after a
 * `kill -9` the folder keeps a stale `postmaster.pid` on which the next open hangs forever
 * (measured with PGlite 0.5.16). So we hold our own lock file naming the owning process, and we
 * only clear PGlite's stale file once our lock proves that no live process owns the folder.
 */

export class DataDirInUseError extends Error {
  readonly dataDir: string;
  readonly ownerPid: number;

  constructor(dataDir: string, ownerPid: number) {
    super(
      `The data folder ${dataDir} is in use by another Portico process (pid ${ownerPid}). ` +
        'Stop that process first, or point DATA_DIR to another folder.',
    );
    this.name = 'DataDirInUseError';
    this.dataDir = dataDir;
    this.ownerPid = ownerPid;
  }
}

interface LockRecord {
  pid: number;
  host: string;
  /** The owner's start time from /proc, so that a recycled pid is not mistaken for the owner. */
  startTime: string | null;
}

const LOCK_FILE = 'portico.lock';

function processStartTime(pid: number): string | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Field 22 (starttime) comes after the command name, which is in parentheses and may hold spaces.
    const afterName = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return afterName[19] ?? null;
  } catch {
    return null;
  }
}

function isAlive(record: LockRecord): boolean {
  if (record.host !== os.hostname()) return true; // another machine on a shared disk: never steal
  try {
    process.kill(record.pid, 0);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
  const start = processStartTime(record.pid);
  return record.startTime === null || start === null || start === record.startTime;
}

function readLock(file: string): LockRecord | null {
  try {
    const parsed = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<LockRecord>;
    if (typeof parsed.pid !== 'number' || typeof parsed.host !== 'string') return null;
    return { pid: parsed.pid, host: parsed.host, startTime: parsed.startTime ?? null };
  } catch {
    return null; // unreadable or half-written by a crashed process: treated as stale
  }
}

export interface DataDirLock {
  /** Releases the lock; safe to call twice. */
  release(): void;
  /** True when the previous owner had died without releasing (a crash). */
  recoveredFromCrash: boolean;
}

/**
 * Takes the lock on `dataDir`, creating the folder when missing. `pgDataDir` is PGlite's folder,
 * whose stale `postmaster.pid` is removed once the lock is ours.
 */
export function acquireDataDirLock(dataDir: string, pgDataDir: string): DataDirLock {
  fs.mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, LOCK_FILE);
  const record: LockRecord = {
    pid: process.pid,
    host: os.hostname(),
    startTime: processStartTime(process.pid),
  };
  let recoveredFromCrash = false;
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = fs.openSync(file, 'wx', 0o600);
      fs.writeSync(fd, JSON.stringify(record));
      fs.fsyncSync(fd);
      fs.closeSync(fd);
      // The lock is ours, so no live process owns the database: a postmaster.pid left behind is
      // stale (a crash, or an older lock-less version) and would make PGlite hang on open.
      const postmasterPid = path.join(pgDataDir, 'postmaster.pid');
      if (fs.existsSync(postmasterPid)) {
        fs.rmSync(postmasterPid, { force: true });
        recoveredFromCrash = true;
      }
      let released = false;
      return {
        recoveredFromCrash,
        release() {
          if (released) return;
          released = true;
          const current = readLock(file);
          if (current?.pid === process.pid) fs.rmSync(file, { force: true });
        },
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const owner = readLock(file);
      if (owner && owner.pid !== process.pid && isAlive(owner)) {
        throw new DataDirInUseError(dataDir, owner.pid);
      }
      // The owner is gone: take its place. Renaming first means only one contender removes it.
      const stale = `${file}.stale-${process.pid}`;
      try {
        fs.renameSync(file, stale);
        fs.rmSync(stale, { force: true });
      } catch {
        /* another process moved it first; retry the exclusive create */
      }
      recoveredFromCrash = true;
    }
  }
  const owner = readLock(file);
  throw new DataDirInUseError(dataDir, owner?.pid ?? -1);
}
