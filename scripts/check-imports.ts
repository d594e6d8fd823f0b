// `npm run check` (last step): the folders of src/ import each other without a cycle, type
// imports included; domain/ imports nothing outside itself, and store/ nothing of the layers
// above it. Prints the offending imports and exits 1 otherwise.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const SRC = path.join(import.meta.dirname, '..', 'src');
/** what a folder may not import ('*': anything outside itself) */
const FORBIDDEN: Record<string, readonly string[]> = {
  domain: ['*'],
  store: ['api', 'console', 'jobs', 'batch', 'start', 'cli', 'main.ts'],
};

/** the folder (or, for a file at the top of src/, the file) a path belongs to */
const unitOf = (file: string): string => path.relative(SRC, file).split(path.sep)[0]!;

const edges = new Map<string, Map<string, string>>();
for (const entry of readdirSync(SRC, { recursive: true, withFileTypes: true })) {
  if (!entry.isFile() || !entry.name.endsWith('.ts') || entry.name.endsWith('.test.ts')) continue;
  const file = path.join(entry.parentPath, entry.name);
  const from = unitOf(file);
  for (const m of readFileSync(file, 'utf8').matchAll(/from '(\.[^']+)'/g)) {
    const to = unitOf(path.resolve(entry.parentPath, m[1]!));
    if (to === from || to.startsWith('..')) continue;
    if (!edges.has(from)) edges.set(from, new Map());
    edges.get(from)!.set(to, `${path.relative(SRC, file)} → ${m[1]}`);
  }
}

const problems: string[] = [];
for (const [unit, forbidden] of Object.entries(FORBIDDEN)) {
  for (const [to, where] of edges.get(unit) ?? []) if (forbidden.includes('*') || forbidden.includes(to)) problems.push(`${unit}/ may not import ${to}: ${where}`);
}

const reaches = (from: string, target: string, seen = new Set<string>()): boolean => {
  if (from === target) return true;
  seen.add(from);
  return [...(edges.get(from)?.keys() ?? [])].some((n) => !seen.has(n) && reaches(n, target, seen));
};
for (const [from, tos] of edges) {
  for (const [to, where] of tos) if (reaches(to, from)) problems.push(`cycle through ${from} → ${to}: ${where}`);
}

if (problems.length > 0) {
  console.error(`import rules broken:\n  ${problems.join('\n  ')}`);
  process.exit(1);
}
console.log(`imports: ${edges.size} folders, no cycle; domain/ and store/ keep to their layers`);
