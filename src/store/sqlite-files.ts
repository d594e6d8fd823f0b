// The files of the embedded store (sqlite.ts): its main file, named by the configuration, and the
// address directory's beside it.
import path from 'node:path';

/** The file of the address directory that goes with an embedded store's file (`:memory:` for an in-memory one). */
export function directoryFileOf(file: string): string {
  if (file === ':memory:') return file;
  const { dir, name } = path.parse(file);
  return path.join(dir, `${name}-addresses.db`);
}
