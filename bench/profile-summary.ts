// Where a server's CPU time went, from a V8 .cpuprofile (node --cpu-prof): self time per part of
// the code and the functions that cost most, in ms and µs per row of the run it profiled.
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}
interface ProfileTree extends ProfileNode {
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileTree[];
  samples: number[];
  timeDeltas: number[];
}

/** The part of the code a function belongs to, by its file (native functions by name). */
function partOf(fn: string, url: string): string {
  if (fn === '(garbage collector)') return 'GC';
  if (fn === '(idle)') return 'idle';
  if (fn === '(program)') return 'V8 and native (unattributed)';
  const u = url.replace(/^file:\/\//, '');
  if (u === '') return /^(parse|stringify)$/.test(fn) ? 'JSON' : /^(run|all|get|iterate|exec|prepare)$/.test(fn) ? 'store (SQLite calls)' : `native: ${fn}`;
  if (/\/src\/batch\/files\/|csv-parse|exceljs|xlsx|iconv|chardet|jschardet|sax|unzip|yauzl/.test(u)) return 'file parsing';
  if (/\/src\/domain\/address\/parse/.test(u)) return 'address parsing';
  if (/\/src\/domain\/address\/(match|regions|official-form)/.test(u)) return 'address matching';
  if (/\/src\/addresses\/|\/src\/store\/address-store/.test(u)) return 'directory';
  if (/\/src\/domain\/model\/|name-signals|assess-service|model-provider/.test(u)) return 'scoring';
  if (/\/src\/store\/|node_modules\/(pg|pg-protocol|postgres)\//.test(u)) return 'store';
  if (/\/src\/batch\//.test(u)) return 'batch (chunks, rows)';
  if (/evidence|node:crypto|internal\/crypto/.test(u)) return 'evidence';
  if (/fastify|busboy|find-my-way|light-my-request|node:internal\/(http|streams|stream_base|net)|node:(http|net|stream)/.test(u)) return 'HTTP and streams';
  if (/\/src\/domain\//.test(u)) return 'domain (other)';
  if (/node:internal|node:/.test(u)) return 'node internals';
  return u.split('/').slice(-2).join('/');
}

export function profileSummary(file: string, rows: number): string {
  const p = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  p.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (p.timeDeltas[i] ?? 0)));
  const parts = new Map<string, number>();
  const fns = new Map<string, number>();
  let busy = 0;
  for (const [id, us] of self) {
    const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
    const part = partOf(functionName, url);
    parts.set(part, (parts.get(part) ?? 0) + us);
    if (part === 'idle') continue;
    busy += us;
    const key = `${functionName || '(anonymous)'} ${url.replace(/^.*\/(src|node_modules)\//, '$1/')}:${lineNumber + 1}`;
    fns.set(key, (fns.get(key) ?? 0) + us);
  }
  const line = (name: string, us: number) => `  ${name.padEnd(44)} ${(us / 1000).toFixed(0).padStart(7)} ms  ${(us / rows).toFixed(2).padStart(7)} µs/row  ${((100 * us) / busy).toFixed(1).padStart(5)} %`;
  const out = [`busy ${(busy / 1e6).toFixed(1)} s (${(busy / rows).toFixed(2)} µs/row over ${rows.toLocaleString('en-US')} rows); idle ${((parts.get('idle') ?? 0) / 1e6).toFixed(1)} s`, 'by part (self time):'];
  for (const [name, us] of [...parts].filter(([n]) => n !== 'idle').toSorted((a, b) => b[1] - a[1]).slice(0, 16)) out.push(line(name, us));
  out.push('store time by the query method that ran it (self time in the SQL layer):');
  for (const [name, us] of storeCallers(p, self).slice(0, 8)) out.push(line(name.slice(0, 44), us));
  out.push('costliest functions (self time):');
  for (const [name, us] of [...fns].toSorted((a, b) => b[1] - a[1]).slice(0, 15)) out.push(line(name.slice(0, 44), us));
  return out.join('\n');
}

/** Self time spent in the SQL layer (src/store/sql-*.ts), by the first store method above it. */
function storeCallers(p: CpuProfile, self: ReadonlyMap<number, number>): [string, number][] {
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const out = new Map<string, number>();
  for (const [id, us] of self) {
    if (!/\/src\/store\/sql-/.test(byId.get(id)!.callFrame.url)) continue;
    let at = parent.get(id);
    let name = '(unknown)';
    while (at !== undefined) {
      const f = byId.get(at)!.callFrame;
      if (!/\/src\/store\/sql/.test(f.url) && f.functionName) {
        name = `${f.functionName} ${f.url.replace(/^.*\/src\//, '')}`;
        break;
      }
      at = parent.get(at);
    }
    out.set(name, (out.get(name) ?? 0) + us);
  }
  return [...out].toSorted((a, b) => b[1] - a[1]);
}
