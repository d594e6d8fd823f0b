// `npm run eval:model`: the bounce model measured the way customers meet it. For each world
// (scripts/eval/worlds.ts) a real server runs on a fresh embedded store with the world's address
// directory imported from files in the official layout and the fake NTS answering the world's
// registry. Each account uploads its test list (names and free-text addresses, through the
// parser, the directory and the model) and is scored; then outcomes of its pool rows are posted
// through POST /batch/{id}/labels, the server refits by itself, and the test lists are scored
// again — at 0, 2,000 and 10,000 labels. Printed per stage: AUC, log loss, Brier, ECE, the time
// to score, and two yardsticks: P(bounce | status) (per account in the multi-account world) from
// the pool's outcomes, and the world's own probabilities (the ceiling).
//   node scripts/eval-model.ts [--worlds returned-mail,thresholds,…] [--seed 1]
// By default every world: the three built beside the model (scripts/eval/worlds.ts), then the five
// written apart from it by someone who had not read it, each with its own address directory:
// `independent` (scripts/eval/independent-world.ts), `second-opinion` (second-world.ts), `third`
// (third-world.ts: a 영남·호남·충청 map, a supplier, a 등기 agency, a franchise HQ, fair leads),
// `fourth` (fourth-world.ts: a card company, a city office, trial sign-ups, a food distributor) and
// `fifth` (fifth-world.ts: a debt collector, an insurer, a 테크노파크, a 농협). About a minute a world.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { writeAddressDbFixture } from '../src/addresses/address-db-fixture.ts';
import { auc, expectedCalibrationError, logLoss } from '../src/domain/model/metrics.ts';
import { GRADE_BANDS } from '../src/domain/model/grades.ts';
import { fitGlobal } from '../src/domain/model/fit.ts';
import { PRIOR_MODEL } from '../src/domain/model/prior.ts';
import { score as scoreTerms, sigmoid } from '../src/domain/model/score.ts';
import { startFakeNts } from '../src/registry/fake-nts-server.ts';
import iconv from 'iconv-lite';
import { startChild } from '../bench/lib.ts';
import { buildIndependentWorld, type IndependentWorld, type Mailing as IndependentMailing } from './eval/independent-world.ts';
import { buildSecondWorld } from './eval/second-world.ts';
import { buildThirdWorld } from './eval/third-world.ts';
import { buildFourthWorld } from './eval/fourth-world.ts';
import { buildFifthWorld } from './eval/fifth-world.ts';
import { buildWorld, fourCustomers, type Mailing, returnedMail, thresholds, type WorldOptions } from './eval/worlds.ts';

const { values } = parseArgs({ options: { worlds: { type: 'string', default: 'returned-mail,thresholds,four-customers,independent,second-opinion,third,fourth,fifth' }, seed: { type: 'string', default: '1' } } });
const seed = Number(values.seed);
const root = path.resolve(import.meta.dirname, '..');
// EVAL_STAGES=0 (or 0,2000): only these stages, for a quick look at the prior
const STAGES = process.env.EVAL_STAGES ? process.env.EVAL_STAGES.split(',').map(Number) : [0, 2_000, 10_000];
const AS_OF = new Date();

const WORLDS: Record<string, Omit<WorldOptions, 'seed'>> = {
  'returned-mail': {
    name: 'returned-mail', process: returnedMail, accounts: ['a', 'b', 'c'], poolRows: 3_400, testRows: 1_500, buildings: 15_000,
    description: 'letters come back as Korea Post returns them: nobody there (moved, closed and re-let), nobody in (suspended), unplaceable (no such number, no 동/호)',
  },
  thresholds: {
    name: 'thresholds', process: thresholds, accounts: ['a', 'b', 'c'], poolRows: 3_400, testRows: 1_500, buildings: 15_000,
    description: 'a carrier who knows the route: clean letters never return, combinations decide, stale lists double everything',
  },
  'four-customers': {
    name: 'four-customers', process: fourCustomers, accounts: ['rural wholesaler', 'bought list', 'branch-heavy', 'ordinary'], poolRows: 2_500, testRows: 1_500, buildings: 15_000,
    branchShare: (a) => (a === 2 ? 0.45 : 0.04), movedShare: (a) => (a === 1 ? 0.12 : 0.04),
    description: 'four customers whose lists differ in how the signals matter',
  },
};

/** Worlds written apart from the model, each with its own directory in the files' layout (not run by default). */
const INDEPENDENT: Record<string, (seed: number, asOf: Date) => IndependentWorld> = {
  independent: buildIndependentWorld,
  'second-opinion': buildSecondWorld,
  third: buildThirdWorld,
  fourth: buildFourthWorld,
  fifth: buildFifthWorld,
};

interface StageResult {
  /** per grade: rows and the share that bounced */
  grades: Map<string, { n: number; b: number }>;
  labels: number;
  model: string;
  auc: number;
  logLoss: number;
  brier: number;
  ece: number;
  scoreSeconds: number;
}

// a grade's observed bounce rate should fall in its band
const BANDS: Record<string, [number, number]> = Object.fromEntries(GRADE_BANDS.map((b, i) => [b.grade, [GRADE_BANDS[i - 1]?.below ?? 0, b.below]]));

/** a row of either kind of world */
type Row = Mailing | IndependentMailing;

const brier = (p: number[], y: boolean[]) => p.reduce((s, x, i) => s + (x - (y[i] ? 1 : 0)) ** 2, 0) / p.length;

/** The terms a row's reasons name, and the account's own copy of each (eval:model's free-fit yardstick). */
/** A row's terms without any account's own copies. */
const shared = (f: Map<string, number>) => new Map([...f].filter(([k]) => !/^\d+:/.test(k)));

/** The independent world's visible truth as terms (each key by value; the closure's age only when NTS reports it), with account a's copies. */
const visible = (keys: readonly string[], m: IndependentMailing, a: number | null): Map<string, number> => {
  const f = new Map<string, number>();
  for (const k of keys) {
    const v = k === 'closedAgo' && m.truth.nts !== '03' ? '-' : String(m.truth[k]);
    f.set(`${k}=${v}`, 1);
    if (a !== null) f.set(`${a}:${k}=${v}`, 1);
  }
  if (a !== null) f.set(`${a}:`, 1);
  return f;
};

const termsOf = (r: { reasons: string | null }, a: number): Map<string, number> => {
  const f = new Map<string, number>();
  for (const m of (r.reasons ?? '').matchAll(/\[([a-z_]+) [+-]/g)) {
    if (m[1] === 'baseline' || m[1] === 'account_history') continue;
    f.set(m[1]!, 1);
    f.set(`${a}:${m[1]}`, 1);
  }
  f.set(`${a}:`, 1);
  return f;
};

async function runWorld(key: string): Promise<void> {
  const spec = WORLDS[key];
  const independent = INDEPENDENT[key]?.(seed, AS_OF) ?? null;
  if (!spec && !independent) throw new Error(`no world ${key}; worlds: ${[...Object.keys(WORLDS), ...Object.keys(INDEPENDENT)].join(', ')}`);
  const world = independent ?? buildWorld({ ...spec!, seed }, AS_OF);
  const dir = mkdtempSync(path.join(tmpdir(), `bizcheck-eval-${key}-`));
  // the world's registry is all there is: a number outside it is unregistered
  const nts = await startFakeNts({ serviceKey: 'eval', overrides: world.records, closedWorld: true });
  const env = {
    DATA_DIR: path.join(dir, 'data'), LOG_LEVEL: 'warn', NTS_SERVICE_KEY: 'eval', NTS_BASE_URL: nts.url, ADDRESS_DIRECTORY: 'local',
    MODEL_REFIT_MIN_LABELS: '500', MODEL_REFIT_CHECK_SECONDS: '1', BATCH_MAX_ROWS: '100000',
  };
  const cli = (...args: string[]) =>
    JSON.parse(execFileSync(process.execPath, ['--disable-warning=ExperimentalWarning', path.join(root, 'src/cli/main.ts'), ...args], { env: { ...process.env, ...env } }).toString()) as Record<string, string>;
  const files = path.join(dir, 'juso');
  mkdirSync(files);
  if (independent) {
    // its own directory, in the files' layout and encoding
    writeFileSync(path.join(files, 'rnaddrkor_eval.txt'), iconv.encode(`${independent.directoryLines.join('\r\n')}\r\n`, 'cp949'));
    if (independent.relatedLines.length > 0) writeFileSync(path.join(files, 'jibun_rnaddrkor_eval.txt'), iconv.encode(`${independent.relatedLines.join('\r\n')}\r\n`, 'cp949'));
  } else await writeAddressDbFixture(path.join(files, 'rnaddrkor_eval.txt'), spec!.buildings, { seed });
  cli('addresses', 'import', files);
  const keys = world.accounts.map((_, i) => {
    const acc = cli('accounts', 'create', '--email', `eval-${key}-${i}@example.com`, '--plan', 'enterprise');
    cli('accounts', 'set-quota', '--account', acc.account_id!, '--limit', '10000000');
    return acc.api_key!;
  });
  const server = await startChild([path.join(root, 'src/main.ts')], env, path.join(dir, 'server.log'));
  try {
    const api = async (k: string, method: string, url: string, body?: unknown): Promise<{ status: number; body: unknown }> => {
      const res = await fetch(`${server.url}${url}`, { method, headers: { 'x-api-key': k, ...(body === undefined ? {} : { 'content-type': 'application/json' }) }, body: body === undefined ? undefined : JSON.stringify(body), signal: AbortSignal.timeout(120_000) });
      return { status: res.status, body: await res.json() };
    };
    /** Uploads rows as a customer list; the job's id and its results' bounce_prob, model_version and biz_status per row. */
    const score = async (k: string, rows: Row[]) => {
      const csv = ['사업자등록번호,상호,주소', ...rows.map((m) => `${m.bno},"${m.name}","${m.address}"`)].join('\n');
      const form = new FormData();
      form.append('file', new Blob([csv], { type: 'text/csv' }), 'list.csv');
      const up = await fetch(`${server.url}/batch`, { method: 'POST', headers: { 'x-api-key': k }, body: form });
      if (up.status !== 202) throw new Error(`upload ${up.status}: ${await up.text()}`);
      const { job_id: job } = (await up.json()) as { job_id: string };
      for (let t = 0; ; t++) {
        if (t > 1200) throw new Error(`job ${job} did not finish in 10 minutes`);
        await new Promise((resolve) => setTimeout(resolve, 250));
        const s = (await api(k, 'GET', `/batch/${job}?preview=0`)).body as { status: string };
        if (s.status === 'failed') throw new Error(`job ${job} failed`);
        if (s.status === 'done') break;
      }
      const results = (await (await fetch(`${server.url}/batch/${job}/results?format=json`, { headers: { 'x-api-key': k } })).json()) as { bounce_prob: number | null; grade: string | null; model_version: string | null; biz_status: string; address_quality: string | null; reasons: string | null }[];
      return { job, results };
    };

    // the pools are uploaded once; their rows are labelled stage by stage
    const pools = await Promise.all(world.pool.map((rows, a) => score(keys[a]!, rows)));
    // P(bounce | status), per account in a world of different customers: the lookup table a customer could keep itself
    const table = new Map<string, { b: number; n: number }>();
    const perAccount = world.accounts.length > 3;
    world.pool.forEach((rows, a) => rows.forEach((m, i) => {
      const k = `${perAccount ? a : ''}|${pools[a]!.results[i]!.biz_status}`;
      const t = table.get(k) ?? { b: 0, n: 0 };
      t.b += m.bounced ? 1 : 0;
      t.n++;
      table.set(k, t);
    }));

    // does this server take outcomes in bulk? (one from before POST /batch/{id}/labels says "no route")
    const noRoute = await api(keys[0]!, 'POST', `/batch/${pools[0]!.job}/labels`, []);
    const bulk = !(noRoute.status === 404 && /no route/.test((noRoute.body as { detail?: string }).detail ?? ''));
    const stages: StageResult[] = [];
    let labelled = 0;
    let lastVersion = '';
    const testRows = world.test.flat();
    const y = testRows.map((m) => m.bounced);
    let statusBaseline = NaN;
    let lastScored: Awaited<ReturnType<typeof score>>[] | null = null;
    for (const target of STAGES) {
      if (target > labelled) {
        // each account labels its pool rows in order, its share of the stage
        const per = Math.ceil((target - labelled) / world.accounts.length);
        await Promise.all(world.accounts.map(async (_, a) => {
          const from = labelled / world.accounts.length;
          const rows = world.pool[a]!.slice(from, from + per).map((m, i) => ({ row_id: from + i + 1, bounced: m.bounced }));
          if (bulk) {
            const res = await api(keys[a]!, 'POST', `/batch/${pools[a]!.job}/labels`, rows);
            if (res.status !== 200) throw new Error(`labels ${res.status}: ${JSON.stringify(res.body)}`);
            return;
          }
          // a server from before bulk labels (to measure what came before): one at a time, 8 in flight
          let next = 0;
          await Promise.all(Array.from({ length: 8 }, async () => {
            while (next < rows.length) {
              const one = await api(keys[a]!, 'POST', `/batch/${pools[a]!.job}/label`, rows[next++]);
              if (one.status !== 200) throw new Error(`label ${one.status}: ${JSON.stringify(one.body)}`);
            }
          }));
        }));
        labelled += per * world.accounts.length;
      }
      // wait (bounded) for the refit of every label so far: its version ends in -n<labels>
      let version = '';
      for (let t = 0; t < 240; t++) {
        const probe = (await api(keys[0]!, 'POST', '/verify', { b_no: world.test[0]![0]!.bno, name: world.test[0]![0]!.name })).body as { model_version: string };
        version = probe.model_version;
        if (target === 0 || (version !== lastVersion && version.endsWith(`-n${labelled}`))) break;
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
      lastVersion = version;
      const t0 = performance.now();
      const scored = await Promise.all(world.test.map((rows, a) => score(keys[a]!, rows)));
      if (target === 0) lastScored = scored;
      const scoreSeconds = (performance.now() - t0) / 1000;
      const p = scored.flatMap((s) => s.results.map((r) => r.bounce_prob ?? NaN));
      if (p.some((x) => !Number.isFinite(x))) throw new Error('a test row has no bounce_prob');
      const grades = new Map<string, { n: number; b: number }>();
      scored.forEach((sc, a) => sc.results.forEach((r, i) => {
        const g = grades.get(r.grade ?? '-') ?? { n: 0, b: 0 };
        g.n++;
        g.b += world.test[a]![i]!.bounced ? 1 : 0;
        grades.set(r.grade ?? '-', g);
      }));
      stages.push({ grades, labels: labelled, model: version, auc: auc(p, y), logLoss: logLoss(p, y), brier: brier(p, y), ece: expectedCalibrationError(p, y), scoreSeconds });
      if (process.env.EVAL_DEBUG) {
        // calibration: predicted against observed by band of prediction
        const edges = [0, 0.02, 0.05, 0.1, 0.15, 0.25, 0.35, 0.5, 0.6, 0.8, 1.01];
        const bins = edges.slice(1).map(() => ({ n: 0, p: 0, y: 0 }));
        p.forEach((x, i) => {
          const b = bins[edges.findIndex((e, k) => x >= e && x < edges[k + 1]!)]!;
          b.n++;
          b.p += x;
          b.y += y[i] ? 1 : 0;
        });
        if (target === Number(process.env.EVAL_BAND_STAGE ?? 0)) {
          // the terms of the rows predicted within EVAL_LO–EVAL_HI (default: the surest, ≥ 0.6), and
          // how often they bounced, at the stage EVAL_BAND_STAGE (default 0: before labels), by account
          const terms = new Map<string, { n: number; y: number; p: number }>();
          scored.forEach((sc, a) => sc.results.forEach((r, i) => {
            const bp = r.bounce_prob ?? 0;
            if (bp < Number(process.env.EVAL_LO ?? 0.6) || bp >= Number(process.env.EVAL_HI ?? 1.01)) return;
            const combo = `${a}: ${[...(r.reasons ?? '').matchAll(/\[([a-z_]+) [+-]/g)].map((m) => m[1]!).filter((t) => t !== 'baseline').toSorted((x, z) => x.localeCompare(z)).join(' ')}`;
            const t = terms.get(combo) ?? { n: 0, y: 0, p: 0 };
            t.n++;
            t.y += world.test[a]![i]!.bounced ? 1 : 0;
            t.p += r.bounce_prob ?? 0;
            terms.set(combo, t);
          }));
          for (const [k, t] of [...terms].toSorted((x, z) => z[1].n - x[1].n).slice(0, 12)) console.log(`  p in band: n ${t.n} p ${(t.p / t.n).toFixed(2)} y ${(t.y / t.n).toFixed(2)}  ${k}`);
          // each term alone, by account: how its rows in the band were predicted and how they bounced
          const single = new Map<string, { n: number; y: number; p: number }>();
          for (const [combo, t] of terms) {
            const [a, rest] = combo.split(': ');
            for (const term of (rest ?? '').split(' ').filter(Boolean)) {
              const e = single.get(`${a}: ${term}`) ?? { n: 0, y: 0, p: 0 };
              e.n += t.n;
              e.y += t.y;
              e.p += t.p;
              single.set(`${a}: ${term}`, e);
            }
          }
          for (const [k, t] of [...single].filter(([, e]) => e.n >= 100).toSorted(([x], [z]) => x.localeCompare(z))) console.log(`  term in band: n ${t.n} p ${(t.p / t.n).toFixed(3)} y ${(t.y / t.n).toFixed(3)}  ${k}`);
        }
        const perAcct = scored.map((sc, a) => {
          const n = sc.results.length;
          const pm = sc.results.reduce((t, r) => t + (r.bounce_prob ?? 0), 0) / n;
          const ym = world.test[a]!.filter((m) => m.bounced).length / n;
          return `${a}: p ${pm.toFixed(3)} y ${ym.toFixed(3)} ECE ${expectedCalibrationError(sc.results.map((r) => r.bounce_prob ?? 0), world.test[a]!.map((m) => m.bounced)).toFixed(3)}`;
        });
        console.log(`  accounts at ${labelled} labels: ${perAcct.join('; ')}`);
        console.log(`  calibration at ${labelled} labels: ${bins.map((b, k) => (b.n === 0 ? '' : `[${edges[k]}–${edges[k + 1]}) n ${b.n} p ${(b.p / b.n).toFixed(3)} y ${(b.y / b.n).toFixed(3)}`)).filter(Boolean).join('; ')}`);
      }
      if (process.env.EVAL_DEBUG && (target === 0 || target === STAGES.at(-1))) {
        // where the model's view and the world's differ: by the truth's damage and state
        const rows = scored.flatMap((s, a) => s.results.map((r, i) => ({ r, m: world.test[a]![i]! })));
        const groups = new Map<string, { n: number; p: number; y: number; q: Map<string, number> }>();
        // the independent world's truth is its own: each of its keys by value
        const groupsOf = (m: Row): string[] => independent
          ? [`account=${m.account}`, ...Object.entries(m.truth).map(([k, v]) => `${k}=${v}`)]
          : [...(perAccount ? [`account=${m.account}/${m.truth.status}${m.truth.branch ? '/branch' : ''}`] : []), `damage=${m.truth.damage}`, `status=${m.truth.status}${m.truth.status === 'closed' ? (m.truth.corporate ? '/corp' : '/indiv') : ''}`, `kind=${m.truth.kind}${m.truth.unitMissing ? '/no-unit' : ''}`, `trade=${m.truth.trade}`, `moved=${m.truth.movedAway}`];
        for (const { r, m } of rows) {
          for (const g of groupsOf(m)) {
            const e = groups.get(g) ?? { n: 0, p: 0, y: 0, q: new Map() };
            e.n++;
            e.p += r.bounce_prob ?? 0;
            e.y += m.bounced ? 1 : 0;
            e.q.set(r.address_quality ?? 'none', (e.q.get(r.address_quality ?? 'none') ?? 0) + 1);
            groups.set(g, e);
          }
        }
        for (const [g, e] of [...groups].toSorted(([a], [b]) => a.localeCompare(b))) console.log(`  ${g.padEnd(28)} n ${String(e.n).padStart(5)}  predicted ${(e.p / e.n).toFixed(3)}  observed ${(e.y / e.n).toFixed(3)}  ${[...e.q].map(([q, n]) => `${q}:${n}`).join(' ')}`);
      }
      if (target === 0) {
        const q = scored.flatMap((s, a) => s.results.map((r) => {
          const t = table.get(`${perAccount ? a : ''}|${r.biz_status}`);
          return t && t.n > 0 ? (t.b + 0.5) / (t.n + 1) : 0.05;
        }));
        statusBaseline = auc(q, y);
      }
    }
    if (process.env.EVAL_DEBUG && lastScored) {
      // the most our terms could say with every label at once: a fit of the terms each row's reasons
      // name (and each account's own copy of them) on all the pools' outcomes, scored on the test lists
      const examples = pools.flatMap((pl, a) => pl.results.map((r, i) => ({ features: termsOf(r, a), bounced: world.pool[a]![i]!.bounced })));
      const free = fitGlobal({ version: 'free', kind: 'global', intercept: -2, weights: {}, trainedOn: 0, createdAt: AS_OF.toISOString() }, examples, { now: AS_OF, interceptPrecision: 1 });
      const q = lastScored.flatMap((sc, a) => sc.results.map((r) => sigmoid(scoreTerms(free, termsOf(r, a)).logit)));
      console.log(`  our terms, fitted freely on all ${examples.length} pool labels (account by account too): AUC ${auc(q, y).toFixed(3)}, log loss ${logLoss(q, y).toFixed(3)}`);
      // the most a prior could say before labels: the same terms, one shared copy, no account's
      const one = fitGlobal({ version: 'free', kind: 'global', intercept: -2, weights: {}, trainedOn: 0, createdAt: AS_OF.toISOString() }, examples.map((e) => ({ ...e, features: shared(e.features) })), { now: AS_OF, interceptPrecision: 1 });
      const q1 = lastScored.flatMap((sc, a) => sc.results.map((r) => sigmoid(scoreTerms(one, shared(termsOf(r, a))).logit)));
      console.log(`  our terms, one shared copy fitted freely on the pool labels (what a prior could reach): AUC ${auc(q1, y).toFixed(3)}, log loss ${logLoss(q1, y).toFixed(3)}`);
      const support = new Map<string, number>();
      for (const e of examples) for (const k of shared(e.features).keys()) support.set(k, (support.get(k) ?? 0) + 1);
      const prior: Readonly<Record<string, number>> = PRIOR_MODEL.weights;
      const diffs = [...support].filter(([, n]) => n >= 50).map(([k, n]) => ({ k, n, prior: prior[k] ?? 0, fitted: one.weights[k] ?? 0 }));
      diffs.sort((a, b) => Math.abs(b.fitted - b.prior) * Math.sqrt(b.n) - Math.abs(a.fitted - a.prior) * Math.sqrt(a.n));
      console.log(`  intercept: prior ${PRIOR_MODEL.intercept.toFixed(2)}, fitted ${one.intercept.toFixed(2)}; terms (labels, prior → fitted):`);
      for (const d of diffs.slice(0, 25)) console.log(`    ${d.k} (${d.n}): ${d.prior.toFixed(2)} → ${d.fitted.toFixed(2)}`);
      if (process.env.EVAL_FIT_OUT) writeFileSync(`${process.env.EVAL_FIT_OUT}-${key}.json`, JSON.stringify({ intercept: one.intercept, prior: PRIOR_MODEL.intercept, terms: diffs }));
      if (independent) {
        // the most any model could reach from what can be known: the world's visible truth (each
        // key by value, the closure's age only when NTS reports it) fitted on the pools' outcomes
        const bare = { version: 'free', kind: 'global' as const, intercept: -2, weights: {}, trainedOn: 0, createdAt: AS_OF.toISOString() };
        for (const copies of [false, true]) {
          const ex = independent.pool.flatMap((pl, a) => pl.map((m) => ({ features: visible(independent.visible, m, copies ? a : null), bounced: m.bounced })));
          const fit = fitGlobal(bare, ex, { now: AS_OF, interceptPrecision: 1 });
          const q2 = independent.test.flatMap((t, a) => t.map((m) => sigmoid(scoreTerms(fit, visible(independent.visible, m, copies ? a : null)).logit)));
          console.log(`  the world's visible truth fitted freely on the pool labels${copies ? ' (account by account too)' : ''}: AUC ${auc(q2, y).toFixed(3)}, log loss ${logLoss(q2, y).toFixed(3)}`);
        }
      }
    }
    const truth = testRows.map((m) => m.p);
    const rate = y.filter(Boolean).length / y.length;
    console.log(`\n## ${world.name}: ${world.description}`);
    console.log(`accounts: ${world.accounts.join(', ')}; ${testRows.length} test rows (bounce rate ${(rate * 100).toFixed(1)} %), pools of ${world.pool[0]!.length}; seed ${seed}`);
    console.log('| labels | model | AUC | log loss | Brier | ECE | seconds to score the test lists |');
    console.log('|---:|---|---:|---:|---:|---:|---:|');
    for (const s of stages) console.log(`| ${s.labels.toLocaleString('en-US')} | ${s.model} | ${s.auc.toFixed(3)} | ${s.logLoss.toFixed(3)} | ${s.brier.toFixed(3)} | ${s.ece.toFixed(3)} | ${s.scoreSeconds.toFixed(1)} |`);
    console.log(`| P(bounce \\| ${perAccount ? 'account, ' : ''}status) from the pool | – | ${statusBaseline.toFixed(3)} | | | | |`);
    console.log(`| the world's own probability (ceiling) | – | ${auc(truth, y).toFixed(3)} | ${logLoss(truth, y).toFixed(3)} | ${brier(truth, y).toFixed(3)} | ${expectedCalibrationError(truth, y).toFixed(3)} | |`);
    for (const st of stages) {
      const line = [...st.grades].toSorted(([a], [b]) => a.localeCompare(b)).map(([g, e]) => {
        const observed = e.b / e.n;
        const [lo, hi] = BANDS[g] ?? [0, 1];
        return `${g} ${(observed * 100).toFixed(1)} % of ${e.n}${observed >= lo && observed < hi ? '' : ` (outside ${lo * 100}–${Number.isFinite(hi) ? hi * 100 : 100} %)`}`;
      });
      console.log(`grades at ${st.labels.toLocaleString('en-US')} labels: ${line.join(', ')}`);
    }
  } finally {
    await server.stop();
    await nts.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

console.log(`eval:model through the HTTP API, ${AS_OF.toISOString().slice(0, 10)}; load average at start ${(await import('node:os')).loadavg().map((x) => x.toFixed(2)).join(' ')}`);
for (const w of values.worlds.split(',')) await runWorld(w.trim());
