// Builds the web console (web/src → web/dist): one JavaScript and one CSS bundle named by the
// hash of their content, and index.html naming them with Subresource Integrity hashes. Runs at
// `npm install`/`npm ci` (the prepare script) and as `npm run build:console`.
import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const dist = path.join(root, 'web', 'dist');
const PUBLIC_BASE = '/console/assets/';

function sri(file: string): string {
  return `sha384-${createHash('sha384').update(readFileSync(path.join(root, file))).digest('base64')}`;
}

const started = performance.now();
rmSync(dist, { recursive: true, force: true });
mkdirSync(dist, { recursive: true });
const result = await build({
  absWorkingDir: root,
  entryPoints: ['web/src/main.tsx'],
  bundle: true,
  minify: true,
  format: 'esm',
  // browsers of the last two years or so: Chromium, Safari on iPhones, Firefox ESR
  target: ['chrome111', 'safari16.4', 'firefox115'],
  jsx: 'automatic',
  jsxImportSource: 'preact',
  outdir: 'web/dist/assets',
  entryNames: '[name]-[hash]',
  assetNames: '[name]-[hash]',
  metafile: true,
  legalComments: 'none',
  logLevel: 'warning',
});

const outputs = Object.entries(result.metafile.outputs);
const js = outputs.find(([, o]) => o.entryPoint === 'web/src/main.tsx');
if (!js) throw new Error('esbuild produced no bundle for web/src/main.tsx');
const css = js[1].cssBundle;
const name = (file: string) => PUBLIC_BASE + path.basename(file);
const tags = [
  css ? `<link rel="stylesheet" href="${name(css)}" integrity="${sri(css)}">` : '',
  `<script type="module" src="${name(js[0])}" integrity="${sri(js[0])}"></script>`,
].filter(Boolean).join('\n    ');
const template = readFileSync(path.join(root, 'web', 'index.html'), 'utf8');
if (!template.includes('<!-- bundle -->')) throw new Error('web/index.html lacks the <!-- bundle --> marker');
writeFileSync(path.join(dist, 'index.html'), template.replace('<!-- bundle -->', tags));
const bytes = outputs.reduce((n, [, o]) => n + o.bytes, 0);
console.log(`console built: ${outputs.length} files, ${(bytes / 1024).toFixed(1)} KiB, ${Math.round(performance.now() - started)} ms → web/dist`);
