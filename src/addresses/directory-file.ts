// An address thread's own read-only connection to the embedded store's file.
//
// The directory's lookups land on rows all over its table and indexes (a chunk's addresses are
// wherever its customers are), so through SQLite's default page cache (2 MB) most page reads
// are a system call and a 4 KB copy out of the OS's cache of the file. A memory map reads those
// pages where the OS keeps them: 200,000 bench addresses checked on a 200,000-building directory
// took ~26 % less time (bench/RESULTS.md, session 29). The mapped pages are the same memory as
// the OS's file cache, not a copy, but the process's RSS counts the ones it touched (up to the
// directory's size, or `mmapBytes`).
import { DatabaseSync } from 'node:sqlite';

export function openDirectoryFile(file: string, mmapBytes: number): DatabaseSync {
  const db = new DatabaseSync(file, { readOnly: true });
  db.exec('PRAGMA busy_timeout = 5000');
  if (mmapBytes > 0) db.exec(`PRAGMA mmap_size = ${Math.floor(mmapBytes)}`);
  return db;
}
