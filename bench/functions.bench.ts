// `npm run bench:functions`: the pure functions whose speed tests used to assert: a global model
// fit on 20,000 labels, and the address parser on a 100,000-character input and on 3,000 random
// address-like strings. Prints the median of a few runs of each; never fails on a time.
//   BENCH_RUNS (default 5)
import { fitGlobal, type Example } from '../src/domain/model/fit.ts';
import { PRIOR_MODEL } from '../src/domain/model/prior.ts';
import { parseAddress } from '../src/domain/address/parse.ts';
import { seededRandom } from '../src/domain/seeded-random.ts';

const runs = Math.max(1, Number(process.env.BENCH_RUNS ?? 5));

function median(fn: () => void): number {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    fn();
    times.push(performance.now() - t0);
  }
  return times.toSorted((a, b) => a - b)[Math.floor(times.length / 2)]!;
}

const rand = seededRandom(9);
const names = Object.keys(PRIOR_MODEL.weights);
const examples: Example[] = Array.from({ length: 20_000 }, () => {
  const f = new Map<string, number>();
  for (let k = 0; k < 4; k++) f.set(names[Math.floor(rand() * names.length)]!, 1);
  return { features: f, bounced: rand() < 0.15 };
});

const long = `서울 강남구 테헤란로 152 ${'가'.repeat(100_000)}`;
const alphabet = ['서울', '강남구', '로', '길', '동', '리', '읍', '면', '가', '산', '지하', '층', '호', '번지', '번길', '(', ')', '[', ']',
  ',', ' ', '  ', '-', '0', '1', '2', '9', '12', '152', '06236', '135-080', 'B', 'F', '제', '우)', '　', '１', '㈜', '시', '군', '구'];
let seed = 12345;
const next = (): number => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0);
const noise = Array.from({ length: 3_000 }, () => {
  let s = '';
  const n = next() % 25;
  for (let j = 0; j < n; j++) s += alphabet[next() % alphabet.length]!;
  return s;
});

const rows = [
  ['fitGlobal, 20,000 labels', median(() => fitGlobal(PRIOR_MODEL, examples, { now: '2026-11-21T12:00:00.000Z' }))],
  ['parseAddress, one 100,000-character input', median(() => parseAddress(long))],
  ['parseAddress, 3,000 random address-like strings', median(() => noise.forEach((s) => parseAddress(s)))],
] as const;
console.log(`median of ${runs} runs, Node ${process.version}`);
for (const [what, ms] of rows) console.log(`  ${what.padEnd(50)} ${ms.toFixed(1).padStart(8)} ms`);
