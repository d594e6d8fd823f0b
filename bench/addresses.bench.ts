// `npm run bench:addresses`: the address directory at national scale (issue: addresses as the
// carrier reads them, item 4). Generates BENCH_BUILDINGS (default 6,400,000, the real release's
// size) buildings in the official 도로명주소 한글 layout, one rnaddrkor_*.txt per 시도 plus
// jibun_rnaddrkor_*.txt related lots for about a quarter of them; imports them with the CLI an
// operator runs (`bizcheck addresses import`, under /usr/bin/time for its peak RSS) into the
// embedded store, or PostgreSQL with BENCH_DATABASE_URL; prints the store's size; then matches
// BENCH_MATCHES (default 50,000) addresses written as lists write them (half clean, half damaged:
// abbreviated 시/도, 지번 forms, old postal codes, missing or wrong numbers, road typos, a missing
// 로/길; with BENCH_FORMS=wider a tenth in forms that narrow the search less: no 시/도 or 시/군/구,
// the 시/도 alone, a road typo with neither, the official form's (동, 건물명) note, a 지번 without its
// 시/군/구, a building by its name) one after another on one core, as POST /verify does (parse, directory, matcher), and in
// chunks of 1,000 as a batch job does (findMany). BENCH_KEEP=1 keeps the generated files and
// store in BENCH_DIR (default a temp folder) so a second run skips generating and importing.
import { spawn } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { once } from 'node:events';
import iconv from 'iconv-lite';
import pg from 'pg';
import { addressDbLine, generateEntries, relatedLotLine } from '../src/addresses/address-db-fixture.ts';
import { LocalDirectory } from '../src/addresses/local-directory.ts';
import { matchAddress } from '../src/domain/address/match.ts';
import { parseAddress } from '../src/domain/address/parse.ts';
import type { DirectoryEntry } from '../src/domain/address/types.ts';
import { seededRandom } from '../src/domain/seeded-random.ts';
import { SIDOS as REGIONS } from '../src/domain/address/regions.ts';
import { openStore } from '../src/store/open.ts';
import { directoryFileOf } from '../src/store/sqlite-files.ts';
import { writeAddress, type Damage } from '../scripts/eval/as-written.ts';
import { dropBenchSchema, endWithThisProcess } from './lib.ts';

const BUILDINGS = Number(process.env.BENCH_BUILDINGS ?? 6_400_000);
const MATCHES = Number(process.env.BENCH_MATCHES ?? 50_000);
const PG_URL = process.env.BENCH_DATABASE_URL;
const KEEP = process.env.BENCH_KEEP === '1';
// BENCH_FORMS=wider: a tenth of the addresses in forms that narrow the search less (below)
const WIDER = process.env.BENCH_FORMS === 'wider';
const SCHEMA = 'bench_addresses';
const BIN = path.resolve(import.meta.dirname, '../bin/bizcheck.js');
// every 시/도, each with buildings in proportion to its 시/군/구 (about 25,000 per 시/군/구 at the
// release's size, as real ones hold)
const SIDOS = REGIONS.map((s) => s.name);
const weights = REGIONS.map((s) => Math.max(1, s.sigungu.length));
const SHARE = weights.map((w) => w / weights.reduce((a, b) => a + b, 0));

const dir = process.env.BENCH_DIR ?? mkdtempSync(path.join(tmpdir(), 'bench-addresses-'));
const files = path.join(dir, 'release');
const dataDir = path.join(dir, 'data');

/** Writes lines to a CP949 file a few thousand at a time, waiting for the disk. */
function cp949Writer(file: string) {
  const out = createWriteStream(file);
  let chunk: string[] = [];
  return {
    async line(s: string): Promise<void> {
      chunk.push(s);
      if (chunk.length >= 5_000) await this.flush();
    },
    async flush(): Promise<void> {
      if (chunk.length === 0) return;
      const ok = out.write(iconv.encode(`${chunk.join('\n')}\n`, 'cp949'));
      chunk = [];
      if (!ok) await once(out, 'drain');
    },
    async close(): Promise<void> {
      await this.flush();
      out.end();
      await once(out, 'close');
    },
  };
}

/** The release: every 시도's buildings and related lots; a sample of the buildings for matching. */
async function generate(): Promise<DirectoryEntry[]> {
  mkdirSync(files, { recursive: true });
  const sample: DirectoryEntry[] = [];
  const every = Math.max(1, Math.floor(BUILDINGS / (MATCHES * 2)));
  const random = seededRandom(99);
  let first = 0;
  for (const [n, sido] of SIDOS.entries()) {
    const count = n === SIDOS.length - 1 ? BUILDINGS - first : Math.round(BUILDINGS * SHARE[n]!);
    const buildings = cp949Writer(path.join(files, `rnaddrkor_${n}.txt`));
    const lots = cp949Writer(path.join(files, `jibun_rnaddrkor_${n}.txt`));
    let i = 0;
    for (const e of generateEntries(count, { seed: 7 + n, firstIndex: first, sido, national: true })) {
      await buildings.line(addressDbLine(e));
      if (random() < 0.25) await lots.line(relatedLotLine(e, { main: e.jibunMain + 1 + Math.floor(random() * 3) }));
      if (i++ % every === 0) sample.push(e);
    }
    await buildings.close();
    await lots.close();
    first += count;
  }
  return sample;
}

/** Runs a command under /usr/bin/time: its output, wall seconds and peak RSS in MB. */
async function timed(args: string[], env: Record<string, string>): Promise<{ stdout: string; seconds: number; rssMb: number }> {
  // a group of its own, so that ending the bench ends the timed process too, not /usr/bin/time alone
  const child = spawn('/usr/bin/time', ['-f', 'TIME %e %M', ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  endWithThisProcess(child);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (b: Buffer) => { stdout += b.toString(); });
  child.stderr.on('data', (b: Buffer) => { stderr += b.toString(); });
  const [code] = (await once(child, 'exit')) as [number];
  const m = /TIME ([\d.]+) (\d+)/.exec(stderr);
  if (code !== 0 || !m) throw new Error(`${args.join(' ')} failed (${code}): ${stderr.slice(-2000)}`);
  return { stdout, seconds: Number(m[1]), rssMb: Math.round(Number(m[2]) / 1024) };
}

function sizeOf(p: string): number {
  return existsSync(p) ? statSync(p).size : 0;
}

const storeConfig = PG_URL ? { kind: 'postgres' as const, url: PG_URL, schema: SCHEMA } : { kind: 'sqlite' as const, file: path.join(dataDir, 'bizcheck.db') };
const env: Record<string, string> = PG_URL ? { DATABASE_URL: PG_URL, DATABASE_SCHEMA: SCHEMA, DATA_DIR: dataDir } : { DATABASE_URL: '', DATA_DIR: dataDir };

const startedAt = Date.now();
const reuse = KEEP && existsSync(path.join(dir, 'imported'));
let sample: DirectoryEntry[];
if (!reuse) {
  if (PG_URL) await dropBenchSchema(PG_URL, SCHEMA);
  rmSync(dataDir, { recursive: true, force: true });
  mkdirSync(dataDir, { recursive: true });
  const t = Date.now();
  sample = await generate();
  const bytes = readdirSync(files).reduce((s, f) => s + sizeOf(path.join(files, f)), 0);
  console.log(`generated ${BUILDINGS.toLocaleString('en')} buildings in ${((Date.now() - t) / 1000).toFixed(0)} s (${(bytes / 1e9).toFixed(2)} GB of CP949 text)`);
  const imp = await timed([process.execPath, BIN, 'addresses', 'import', files], env);
  const result = JSON.parse(imp.stdout) as Record<string, number>;
  console.log(`import (${PG_URL ? 'PostgreSQL' : 'embedded'}): ${imp.seconds.toFixed(0)} s, ${Math.round(BUILDINGS / imp.seconds).toLocaleString('en')} buildings/s, peak RSS ${imp.rssMb} MB`);
  console.log(`  ${JSON.stringify(result)}`);
  if (KEEP) rmSync(files, { recursive: true, force: true });
  if (KEEP) mkdirSync(path.join(dir, 'imported'));
} else {
  // the same seeds give the same sample without writing the files again
  sample = [];
  const every = Math.max(1, Math.floor(BUILDINGS / (MATCHES * 2)));
  let first = 0;
  for (const [n, sido] of SIDOS.entries()) {
    const count = n === SIDOS.length - 1 ? BUILDINGS - first : Math.round(BUILDINGS * SHARE[n]!);
    let i = 0;
    for (const e of generateEntries(count, { seed: 7 + n, firstIndex: first, sido, national: true })) if (i++ % every === 0) sample.push(e);
    first += count;
  }
}

const store = await openStore(storeConfig);
if (!PG_URL) {
  // the embedded store keeps the directory in a file of its own beside the main one
  const main = storeConfig.kind === 'sqlite' ? storeConfig.file : '';
  const bytes = [main, directoryFileOf(main)].reduce((n, f) => n + sizeOf(f) + sizeOf(`${f}-wal`), 0);
  console.log(`store files: ${(bytes / 1e9).toFixed(2)} GB (${main}, ${directoryFileOf(main)})`);
} else {
  const client = new pg.Client({ connectionString: PG_URL, options: `-c search_path=${SCHEMA}` });
  await client.connect();
  const r = await client.query("SELECT pg_total_relation_size('address_directory') + pg_total_relation_size('address_related_lots') + pg_total_relation_size('address_former_roads') AS n");
  await client.end();
  console.log(`tables and indexes: ${(Number(r.rows[0]?.n) / 1e9).toFixed(2)} GB`);
}

// the addresses: half as the directory has them, half damaged as lists damage them
const random = seededRandom(5);
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)] as T;
const DAMAGE: Damage[] = ['jibun', 'old_zip', 'no_number', 'wrong_number', 'road_typo', 'abbreviated'];
const written: { raw: string; damage: string }[] = [];
for (let i = 0; i < MATCHES; i++) {
  const e = pick(sample);
  const r = random();
  if (r < 0.5) written.push({ raw: writeAddress(e, 'none', null, random, pick), damage: 'none' });
  else if (r < 0.55 && e.sigungu !== '' && !e.roadName.endsWith('번길')) written.push({ raw: `${e.sido} ${e.sigungu} ${e.roadName.replace(/(로|길)$/, '')} ${e.buildingMain}`, damage: 'no_suffix' });
  else if (WIDER && r < 0.65) {
    // how lists also write a place, with less to narrow the search: no 시/도 and 시/군/구 at all, the
    // 시/도 alone, a road typo with neither, the official form's (동, 건물명) note, a 지번 without
    // its 시/군/구, a building by its name after its 동
    const num = `${e.underground ? '지하 ' : ''}${e.buildingMain}${e.buildingSub ? `-${e.buildingSub}` : ''}`;
    const typo = writeAddress(e, 'road_typo', null, random, pick).split(' ').slice(e.sigungu === '' ? 1 : 1 + e.sigungu.split(' ').length).join(' ');
    const forms: [string, string][] = [
      ['no_region', `${e.roadName} ${num}`],
      ['sido_only', `${e.sido} ${e.roadName} ${num}`],
      ['typo_no_region', typo],
      ['official_note', `${e.sido} ${e.sigungu} ${e.roadName} ${num} (${e.eupmyeondong}${e.buildingName ? `, ${e.buildingName}` : ''})`],
      ['jibun_no_sgg', `${e.sido} ${e.eupmyeondong}${e.ri ? ` ${e.ri}` : ''} ${e.jibunMain}${e.jibunSub ? `-${e.jibunSub}` : ''}`],
      ['name_only', `${e.sido} ${e.sigungu} ${e.eupmyeondong} ${e.buildingName || '한빛빌딩'} 3층`],
    ];
    const [damage, raw] = pick(forms);
    written.push({ raw, damage });
  } else {
    const damage = pick(DAMAGE);
    written.push({ raw: writeAddress(e, damage, null, random, pick), damage });
  }
}

const directory = new LocalDirectory(store.addresses);
// warm the 시군구 road lists and the page cache as a running server has them
for (const w of written.slice(0, 2_000)) matchAddress(parseAddress(w.raw), await directory.find(parseAddress(w.raw)));

const latencies: number[] = [];
const quality = new Map<string, number>();
const timeBy = new Map<string, number>();
const t0 = performance.now();
for (const w of written) {
  const s = performance.now();
  const p = parseAddress(w.raw);
  const m = matchAddress(p, await directory.find(p));
  latencies.push(performance.now() - s);
  timeBy.set(w.damage, (timeBy.get(w.damage) ?? 0) + performance.now() - s);
  const k = `${w.damage}:${m.quality}`;
  quality.set(k, (quality.get(k) ?? 0) + 1);
}
const seconds = (performance.now() - t0) / 1000;
latencies.sort((a, b) => a - b);
const pct = (q: number): string => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]!.toFixed(3);
console.log(`one at a time (POST /verify's way): ${Math.round(MATCHES / seconds).toLocaleString('en')} addresses/s, p50 ${pct(0.5)} ms, p99 ${pct(0.99)} ms, max ${pct(1)} ms`);

const t1 = performance.now();
for (let at = 0; at < written.length; at += 1_000) {
  const parsed = written.slice(at, at + 1_000).map((w) => parseAddress(w.raw));
  const found = await directory.findMany(parsed);
  parsed.forEach((p, i) => matchAddress(p, found[i]!));
}
console.log(`in chunks of 1,000 (a batch job's way): ${Math.round(MATCHES / ((performance.now() - t1) / 1000)).toLocaleString('en')} addresses/s`);
const byDamage = new Map<string, Record<string, number>>();
for (const [k, n] of quality) {
  const [damage, q] = k.split(':') as [string, string];
  byDamage.set(damage, { ...byDamage.get(damage), [q]: n });
}
for (const [damage, q] of [...byDamage].toSorted(([a], [b]) => (a < b ? -1 : 1))) {
  const n = Object.values(q).reduce((a, b) => a + b, 0);
  console.log(`  ${damage.padEnd(13)} ${((timeBy.get(damage) ?? 0) / n).toFixed(3)} ms each, ${JSON.stringify(q)}`);
}
await store.close();
if (!KEEP) {
  if (PG_URL) await dropBenchSchema(PG_URL, SCHEMA);
  rmSync(dir, { recursive: true, force: true });
}
console.log(`done in ${((Date.now() - startedAt) / 1000).toFixed(0)} s; load average ${(await import('node:os')).loadavg().map((x) => x.toFixed(2)).join(' ')}`);
