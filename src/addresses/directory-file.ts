// An address thread's own read-only connection to the embedded store's directory file
// (sqlite.ts keeps the directory in a file of its own, which only imports write).
//
// A chunk's lookups land on rows all over the directory's table and indexes (its addresses are
// wherever its customers are), so through SQLite's page cache (2 MB by default) most page reads
// are a system call and a 4 KB copy out of the OS's cache of the file. A memory map reads the
// pages where the OS keeps them. It pays only on a file nobody writes meanwhile: on the main
// file, which every chunk's commit changes, the map made the thread's checks slower, not faster
// (bench/RESULTS.md, session 29). The mapped pages are the OS's cache of the file, not a copy,
// but the process's RSS counts those the thread touched (up to the directory's size, or
// `mmapBytes`).
import { DatabaseSync } from 'node:sqlite';

export function openDirectoryFile(file: string, mmapBytes: number): DatabaseSync {
  const db = new DatabaseSync(file, { readOnly: true });
  db.exec('PRAGMA busy_timeout = 5000');
  if (mmapBytes > 0) db.exec(`PRAGMA mmap_size = ${Math.floor(mmapBytes)}`);
  return db;
}
