// The documentation cannot drift: the configuration page is what src/config.ts reads, and every
// relative link in the README and docs/ points at a file (and a heading) that exists.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { configurationPage } from '../scripts/docs-config.ts';

const root = path.resolve(import.meta.dirname, '..');
const pages = ['README.md', ...readdirSync(path.join(root, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];

/** GitHub's heading anchors: lower case, punctuation dropped, spaces as hyphens. */
const anchorsOf = (text: string): Set<string> =>
  new Set(
    text
      .replace(/```[\s\S]*?```/g, '')
      .split('\n')
      .filter((l) => /^#{1,6} /.test(l))
      .map((l) => l.replace(/^#+ /, '').trim().toLowerCase().replace(/[^\p{L}\p{N}\- ]/gu, '').replace(/ /g, '-')),
  );

test('docs/configuration.md is generated from the configuration schema (npm run docs:config)', () => {
  assert.equal(readFileSync(path.join(root, 'docs/configuration.md'), 'utf8'), configurationPage());
});

test('every relative link in the README and docs/ resolves, anchors included', () => {
  const broken: string[] = [];
  for (const page of pages) {
    const text = readFileSync(path.join(root, page), 'utf8').replace(/```[\s\S]*?```/g, '');
    for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^(https?:|mailto:)/.test(target!)) continue;
      const [file, anchor] = target!.split('#') as [string, string | undefined];
      const resolved = file === '' ? path.join(root, page) : path.resolve(path.dirname(path.join(root, page)), file);
      if (!existsSync(resolved)) broken.push(`${page}: ${target} (no such file)`);
      else if (anchor && resolved.endsWith('.md') && !anchorsOf(readFileSync(resolved, 'utf8')).has(anchor)) broken.push(`${page}: ${target} (no such heading)`);
    }
  }
  assert.deepEqual(broken, []);
});

test('the README starts with what gets a new user to a first answer', () => {
  const readme = readFileSync(path.join(root, 'README.md'), 'utf8');
  const firstScreen = readme.split('\n').slice(0, 60).join('\n');
  for (const step of ['npm install && npm start', 'accounts create', 'curl', '/batch', 'console']) assert.ok(firstScreen.includes(step), step);
  assert.ok(readme.split('\n').length < 120, 'the reference lives in docs/');
});
