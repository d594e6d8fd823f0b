// `npm run docs:config`: docs/configuration.md from the configuration schema itself (src/config.ts),
// so the table cannot drift from what the service reads. `--check` only compares (a test runs it).
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { EnvSchema } from '../src/config.ts';

const target = path.resolve(import.meta.dirname, '../docs/configuration.md');

// defaults that depend on the machine are named, not printed as this machine's value
const DEFAULT_TEXT: Record<string, string> = { ADDRESS_THREADS: 'the cores but one (at least 1)' };

type Prop = { default?: unknown; minimum?: number; maximum?: number; pattern?: string; description?: string; anyOf?: { const?: unknown }[] };

function allowed(p: Prop): string {
  if (p.anyOf?.every((a) => a.const !== undefined)) return p.anyOf.map((a) => `\`${String(a.const)}\``).join(', ');
  if (p.minimum !== undefined || p.maximum !== undefined) return `${p.minimum ?? '…'}–${p.maximum ?? '…'}`;
  if (p.pattern) return `\`${p.pattern}\``;
  return 'text';
}

export function configurationPage(): string {
  const props = EnvSchema.properties as Record<string, Prop>;
  const required = new Set((EnvSchema as { required?: string[] }).required ?? []);
  const rows = Object.entries(props)
    .toSorted(([a], [b]) => a.localeCompare(b))
    .map(([name, p]) => {
      const dflt = DEFAULT_TEXT[name] ?? (p.default === undefined ? (required.has(name) ? 'required' : '—') : `\`${JSON.stringify(p.default).replace(/^"|"$/g, '')}\``);
      return `| \`${name}\` | ${dflt} | ${allowed(p)} | ${(p.description ?? '').replace(/\|/g, '\\|')} |`;
    });
  return [
    '# Configuration',
    '',
    '[← README](../README.md)',
    '',
    'Every setting is an environment variable, read once at start-up and validated: a bad value stops',
    'the process with exit code 2 and a line per variable. This page is generated from the schema the',
    'service reads (`src/config.ts`) by `npm run docs:config`; a test fails when it is out of date.',
    '',
    '| variable | default | allowed | |',
    '|---|---|---|---|',
    ...rows,
    '',
  ].join('\n');
}

if (import.meta.main) {
  const page = configurationPage();
  if (process.argv.includes('--check')) {
    if (readFileSync(target, 'utf8') !== page) {
      process.stderr.write('docs/configuration.md is not what src/config.ts reads: run npm run docs:config\n');
      process.exit(1);
    }
  } else {
    writeFileSync(target, page);
    process.stdout.write(`wrote ${path.relative(process.cwd(), target)}\n`);
  }
}
