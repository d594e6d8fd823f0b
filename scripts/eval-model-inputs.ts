// Measures the bounce model on a synthetic mailing world whose true bounce process is hidden
// from it and deliberately unlike the prior, then measures it again after learning from labels.
//
//   node scripts/eval-model-inputs.ts [--seed N] [--labels 2000] [--world-size 20000]
//
// The hidden process (log-odds of a bounce; σ turns it into the probability). It is a stale
// DM list where the carrier returns almost everything sent to dead businesses, unlike the
// prior's judgement: clean mail bounces less than the prior thinks, status and address
// problems far more, some prior weights are effects that do not exist here.
//   z = −5.6                                  a clean mailing ≈ 1.4 % (the prior assumes ≈ 3–4 %)
//     + 0.7·individual + 0.5·simplified VAT
//     + status: suspended 3.8 | closed 6.2 + 0.3·years since closure (≤ 10) | unregistered 7.0
//       (unknown and invalid numbers hide a true status drawn from the same mix)
//     + address: corrected 0.4 + 0.5·changes | ambiguous 3.0 | not found 4.4 | none given 1.6
//     + 1.0·closed×address not found
//     + 1.0·missing building no. + 1.8·missing unit + 0.8·zip mismatch + 0·outdated zip
//     + 0·name/entity mismatch + 1.8·name closure hint
//     + u, u ~ N(0, 0.5²) per business, unobserved; the recorded history is drawn from the same
//       probability, so it carries u
// Robustness: two more seeds, and worlds whose every hidden weight is scaled by its own factor
// in [0.7, 1.3] and whose base moves by up to ±0.5. Targets: prior AUC ≥ 0.90 and refit
// ECE ≤ 0.03 in every world; refit log loss ≥ 15 % below the prior's in the unperturbed worlds
// (a perturbed world may happen to sit closer to the prior, leaving less to learn; its gap to
// the oracle shows whether the refit still learned). The script exits 1 when a target is missed.
import { parseArgs } from 'node:util';
import { featurize } from '../src/domain/model/features.ts';
import { fitGlobal, type Example } from '../src/domain/model/fit.ts';
import { auc, expectedCalibrationError, logLoss } from '../src/domain/model/metrics.ts';
import { PRIOR_MODEL } from '../src/domain/model/prior.ts';
import { score, sigmoid } from '../src/domain/model/score.ts';
import type { AssessmentInput, ModelParams } from '../src/domain/model/types.ts';
import { seededRandom } from '../src/domain/seeded-random.ts';

const HIDDEN = {
  base: -5.6, individual: 0.7, simplified: 0.5,
  suspended: 3.8, closed: 6.2, closedPerYear: 0.3, unregistered: 7.0,
  corrected: 0.4, perChange: 0.5, ambiguous: 3.0, notFound: 4.4, noAddress: 1.6, closedXnotFound: 1.0,
  missingBuilding: 1.0, missingUnit: 1.8, zipMismatch: 0.8, outdatedZip: 0,
  nameMismatch: 0, closureHint: 1.8, latentSd: 0.5,
};
type Hidden = typeof HIDDEN;
const AS_OF = '2026-11-21';

/** the shared seeded stream behind a scramble of the seed, so nearby seeds give unrelated worlds */
const rngOf = (seed: number): (() => number) => seededRandom(Math.imul(seed ^ 0x9e3779b9, 0x85ebca6b));

function tools(rand: () => number) {
  return {
    chance: (p: number): boolean => rand() < p,
    int: (lo: number, hi: number): number => lo + Math.floor(rand() * (hi - lo + 1)),
    normal: (): number => Math.sqrt(-2 * Math.log(1 - rand())) * Math.cos(2 * Math.PI * rand()),
    pick: <T>(table: readonly (readonly [T, number])[]): T => {
      let r = rand() * table.reduce((s, [, w]) => s + w, 0);
      for (const [v, w] of table) if ((r -= w) < 0) return v;
      return table[table.length - 1]![0];
    },
  };
}

type TrueStatus = 'active' | 'suspended' | 'closed' | 'unregistered';
const STATUS_MIX = [['active', 82], ['closed', 8], ['suspended', 4], ['unregistered', 5], ['invalid', 0.5], ['unknown', 0.5]] as const;
const TRUE_MIX = [['active', 82], ['closed', 8], ['suspended', 4], ['unregistered', 5]] as const;
const ENTITY_MIX = [['individual_taxable', 70], ['individual_exempt', 8], ['corporate_head', 18], ['corporate_branch', 3], ['nonprofit', 1]] as const;
const ADDRESS_MIX = [['exact', 70], ['corrected', 15], ['ambiguous', 5], ['not_found', 5], ['no_address', 5]] as const;

interface Mailing {
  input: AssessmentInput;
  bounced: boolean;
  trueProb: number;
}

function mailing(t: ReturnType<typeof tools>, h: Hidden): Mailing {
  const shown = t.pick(STATUS_MIX);
  const status: TrueStatus = shown === 'invalid' || shown === 'unknown' ? t.pick(TRUE_MIX) : shown;
  const entityKind = t.pick(ENTITY_MIX);
  const individual = entityKind === 'individual_taxable' || entityKind === 'individual_exempt';
  const taxTypeCode = shown === 'unregistered' || shown === 'unknown' || shown === 'invalid' ? ''
    : entityKind === 'individual_exempt' ? '04' : entityKind === 'nonprofit' ? '05'
    : individual && t.chance(0.3) ? '02' : '01';
  const yearsClosed = status === 'closed' ? t.int(0, 3652) / 365.25 : 0;
  const closedOn = status === 'closed' ? new Date(Date.parse(`${AS_OF}T00:00:00Z`) - Math.round(yearsClosed * 365.25) * 86_400_000).toISOString().slice(0, 10) : null;
  // old customer records (dead businesses) carry older addresses and zips
  const stale = status === 'closed' || status === 'unregistered';
  const quality = t.pick(ADDRESS_MIX);
  const matched = quality === 'exact' || quality === 'corrected';
  const addressChanges = quality === 'corrected' ? (t.chance(0.6) ? 1 : 2) : 0;
  const missingBuildingNumber = quality === 'corrected' ? t.chance(0.2) : quality === 'ambiguous' ? t.chance(0.4) : quality === 'not_found' && t.chance(0.3);
  const missingUnit = quality !== 'no_address' && t.chance(0.12);
  const zipMismatch = matched && t.chance(0.04);
  const outdatedZip = quality !== 'no_address' && t.chance(stale ? 0.2 : 0.08);
  const entityMismatch = t.chance(0.02);
  const closureHint = t.chance(status === 'closed' ? 0.15 : 0.005);

  const u = h.latentSd * t.normal();
  let z = h.base + (individual ? h.individual : 0) + (taxTypeCode === '02' ? h.simplified : 0);
  if (status === 'suspended') z += h.suspended;
  if (status === 'closed') z += h.closed + h.closedPerYear * Math.min(yearsClosed, 10);
  if (status === 'unregistered') z += h.unregistered;
  if (quality === 'corrected') z += h.corrected + h.perChange * addressChanges;
  if (quality === 'ambiguous') z += h.ambiguous;
  if (quality === 'not_found') z += h.notFound + (status === 'closed' ? h.closedXnotFound : 0);
  if (quality === 'no_address') z += h.noAddress;
  z += (missingBuildingNumber ? h.missingBuilding : 0) + (missingUnit ? h.missingUnit : 0) + (zipMismatch ? h.zipMismatch : 0) + (outdatedZip ? h.outdatedZip : 0);
  z += (entityMismatch ? h.nameMismatch : 0) + (closureHint ? h.closureHint : 0) + u;
  const trueProb = sigmoid(z);
  const past = (n: number): [number, number] => {
    let b = 0;
    for (let i = 0; i < n; i++) if (t.chance(trueProb)) b++;
    return [b, n - b];
  };
  const [bizBounced, bizDelivered] = past(t.chance(0.25) ? t.int(1, 6) : 0);
  const [addressBounced, addressDelivered] = past(quality !== 'no_address' && t.chance(0.15) ? t.int(1, 4) : 0);
  const input: AssessmentInput = {
    status: shown, closedOn, taxTypeCode, entityKind, addressQuality: quality, addressChanges, missingBuildingNumber, missingUnit,
    zipMismatch, outdatedZip, formerRoad: false, liveNeighbour: null,
    // this world is built at the model-input level without the newer signals (trade, building kind, why not found …)
    addressForm: quality === 'no_address' ? null : 'road', notFound: null, buildingKind: 'unknown', rural: false,
    name: { entityMismatch, closureHint, trade: null, branch: false }, history: { bizBounced, bizDelivered, bizGone: 0, bizAbsent: 0, addressBounced, addressDelivered }, asOf: AS_OF,
  };
  return { input, bounced: t.chance(trueProb), trueProb };
}

function perturbed(h: Hidden, rand: () => number): Hidden {
  const out = { ...h };
  for (const k of Object.keys(out) as (keyof Hidden)[]) if (k !== 'base' && k !== 'latentSd') out[k] = h[k] * (0.7 + 0.6 * rand());
  // ±30 % of the base would change the world's base rate by up to ×5; ±0.5 is ×1.6 either way
  out.base = h.base + (rand() - 0.5);
  return out;
}

interface Metrics {
  auc: number;
  ll: number;
  ece: number;
}
function measure(model: ModelParams, set: readonly (Mailing & Example)[]): Metrics {
  const p = set.map((m) => score(model, m.features).prob);
  const y = set.map((m) => m.bounced);
  return { auc: auc(p, y), ll: logLoss(p, y), ece: expectedCalibrationError(p, y) };
}

interface Run {
  name: string;
  rate: number;
  oracleLl: number;
  oracleAuc: number;
  before: Metrics;
  after: Metrics;
  model: ModelParams;
  /** targets this world missed, empty when all were met */
  missed: string[];
  /** observed bounce rate by shown status and by address quality, for judging the world's realism */
  breakdown: string;
}

function breakdown(world: readonly Mailing[]): string {
  const groups = new Map<string, { n: number; b: number }>();
  const add = (k: string, bounced: boolean): void => {
    const g = groups.get(k) ?? { n: 0, b: 0 };
    g.n++;
    if (bounced) g.b++;
    groups.set(k, g);
  };
  for (const m of world) {
    add(m.input.status, m.bounced);
    add(m.input.addressQuality, m.bounced);
    if (m.input.status === 'active' && m.input.addressQuality === 'exact') add('active+exact', m.bounced);
  }
  return [...groups].map(([k, g]) => `${k} ${((100 * g.n) / world.length).toFixed(1)}% of rows, ${((100 * g.b) / g.n).toFixed(1)}% bounce`).join('; ');
}

function run(name: string, seed: number, h: Hidden, size: number, labels: number, gainRequired: boolean): Run {
  const t = tools(rngOf(seed));
  const world = Array.from({ length: size }, () => {
    const m = mailing(t, h);
    return { ...m, features: featurize(m.input) };
  });
  const train = world.slice(0, labels);
  const heldOut = world.slice(labels);
  const model = fitGlobal(PRIOR_MODEL, train, { now: `${AS_OF}T00:00:00Z` });
  const before = measure(PRIOR_MODEL, heldOut);
  const after = measure(model, heldOut);
  const rate = heldOut.filter((m) => m.bounced).length / heldOut.length;
  const oracleLl = logLoss(heldOut.map((m) => m.trueProb), heldOut.map((m) => m.bounced));
  const oracleAuc = auc(heldOut.map((m) => m.trueProb), heldOut.map((m) => m.bounced));
  const missed = [before.auc >= 0.9 ? '' : 'AUC', after.ece <= 0.03 ? '' : 'ECE', !gainRequired || after.ll <= 0.85 * before.ll ? '' : 'Δll'].filter(Boolean);
  return { name, rate, oracleLl, oracleAuc, before, after, model, missed, breakdown: breakdown(world) };
}

const { values } = parseArgs({
  options: { seed: { type: 'string', default: '1' }, labels: { type: 'string', default: '2000' }, 'world-size': { type: 'string', default: '20000' } },
});
const seed = Number(values.seed);
const labels = Number(values.labels);
const size = Number(values['world-size']);
if (!Number.isInteger(seed) || !Number.isInteger(labels) || !Number.isInteger(size) || labels < 1 || size <= labels) {
  console.error('usage: node scripts/eval-model.ts [--seed N] [--labels 2000] [--world-size 20000]  (world size > labels)');
  process.exit(2);
}

const runs: Run[] = [];
for (let i = 0; i < 3; i++) runs.push(run(`seed ${seed + i}`, seed + i, HIDDEN, size, labels, true));
for (let i = 0; i < 3; i++) runs.push(run(`seed ${seed + i}, ±30 %`, seed + i, perturbed(HIDDEN, rngOf(seed + 1000 + i)), size, labels, false));

const f = (x: number, d = 3): string => x.toFixed(d);
console.log(`bounce model eval: world ${size}, ${labels} labels for the refit, ${size - labels} held out; prior ${PRIOR_MODEL.version}`);
console.log('hidden process: the comment at the top of scripts/eval-model.ts; ±30 % rows scale each hidden weight by U[0.7, 1.3] and shift its base by U[-0.5, 0.5]');
console.log(`hidden: ${Object.entries(HIDDEN).map(([k, v]) => `${k} ${v}`).join(', ')}\n`);
console.log('world               bounce  | prior AUC  logloss  ECE   | refit AUC  logloss  ECE   | Δlogloss | oracle AUC  ll    | targets');
for (const r of runs) {
  const change = (r.after.ll - r.before.ll) / r.before.ll;
  console.log(
    `${r.name.padEnd(19)} ${f(r.rate * 100, 1).padStart(5)} % | ` +
      `${f(r.before.auc).padStart(9)}  ${f(r.before.ll).padStart(7)}  ${f(r.before.ece)} | ` +
      `${f(r.after.auc).padStart(9)}  ${f(r.after.ll).padStart(7)}  ${f(r.after.ece)} | ` +
      `${(f(change * 100, 1) + ' %').padStart(8)} | ${f(r.oracleAuc).padStart(10)}  ${f(r.oracleLl)} | ${r.missed.length === 0 ? 'met' : `MISSED ${r.missed.join(', ')}`}`,
  );
}
const first = runs[0]!;
console.log(`\n${first.name} world: ${first.breakdown}`);
console.log(`\nweights, prior → refit on ${first.name} (${first.model.version}):`);
const names = Object.keys(first.model.weights).toSorted();
const cell = (n: string): string => `${n.padEnd(24)} ${f(PRIOR_MODEL.weights[n] ?? 0, 2).padStart(6)} → ${f(first.model.weights[n] ?? 0, 2).padStart(6)}`;
console.log(`  ${'intercept'.padEnd(24)} ${f(PRIOR_MODEL.intercept, 2).padStart(6)} → ${f(first.model.intercept, 2).padStart(6)}`);
for (let i = 0; i < names.length; i += 2) console.log(`  ${cell(names[i]!)}    ${names[i + 1] ? cell(names[i + 1]!) : ''}`);
const ok = runs.every((r) => r.missed.length === 0);
console.log(`\ntargets: prior AUC ≥ 0.90 and refit ECE ≤ 0.03 everywhere; refit log loss ≤ 85 % of the prior's in the unperturbed worlds — ${ok ? 'met' : 'MISSED'}`);
process.exit(ok ? 0 : 1);
