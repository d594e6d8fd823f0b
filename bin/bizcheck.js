#!/usr/bin/env node
// npx puts node_modules/.bin first on PATH, so this runs on the pinned Node 24.
if (Number(process.versions.node.split('.')[0]) < 24) {
  process.stderr.write(`bizcheck needs Node 24 (this is ${process.version}); run it through npx or npm run cli\n`);
  process.exit(1);
}
// node:sqlite is stable enough for us; its experimental notice would only clutter CLI output
process.removeAllListeners('warning');
await import('../src/cli/main.ts');
