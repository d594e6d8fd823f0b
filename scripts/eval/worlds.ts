// Mailing worlds for `npm run eval:model`: a directory of buildings (written in the official
// 도로명주소 layout and imported like production's), a registry of businesses (answered by the
// fake NTS), customer lists written the way offices write them (abbreviated 시/도, 지번 forms,
// old postal codes, wrong or missing numbers, road-name typos, missing units), and a hidden
// process that decides which letters come back. The processes are written from what returned
// mail is (who is no longer there, who never was, which letters the carrier cannot place), in
// terms of each business's true state, never in terms of the model's features or weights.
import { generateEntries } from '../../src/addresses/address-db-fixture.ts';
import { checkDigitOf } from '../../src/domain/bizno.ts';
import { seededRandom } from '../../src/domain/seeded-random.ts';
import type { DirectoryEntry } from '../../src/domain/address/types.ts';
import type { NtsRecord } from '../../src/domain/status.ts';
import { unregisteredRecord } from '../../src/registry/sandbox.ts';
import { damageOf, kindOf, SYLLABLES, TRADE_WORDS, type Damage, type Kind, type Trade, unitOf, writeAddress } from './as-written.ts';

export type { Damage, Kind, Trade };

/** One mailing: what the customer's list says, and the truth the world keeps to itself. */
export interface Mailing {
  account: number;
  bno: string;
  name: string;
  address: string;
  truth: {
    status: 'active' | 'suspended' | 'closed' | 'unregistered';
    corporate: boolean;
    branch: boolean;
    trade: Trade;
    kind: Kind;
    /** years since closure (closed only) */
    closedYears: number;
    /** the business left this address but NTS still has it (it did not report the move) */
    movedAway: boolean;
    /** the unit (동/호) the building needs was left out */
    unitMissing: boolean;
    damage: Damage;
  };
  /** the world's probability that this letter comes back, and the outcome drawn from it */
  p: number;
  bounced: boolean;
}

export interface World {
  name: string;
  description: string;
  /** accounts and what their lists are like */
  accounts: string[];
  directory: DirectoryEntry[];
  /** apartment flag per building id, for the 공동주택구분 column */
  apartments: Set<string>;
  records: Map<string, NtsRecord>;
  /** per account: the rows labels come from, and the rows each stage is scored on */
  pool: Mailing[][];
  test: Mailing[][];
}


/** How a world turns a business's truth into the chance its letter comes back. */
export type Process = (m: Omit<Mailing, 'p' | 'bounced'>, account: number) => number;

const either = (...ps: number[]): number => 1 - ps.reduce((q, p) => q * (1 - Math.min(Math.max(p, 0), 1)), 1);

/**
 * "As returned mail is": written from how Korea Post returns business mail, not from the model.
 * A letter comes back when nobody at the address takes it (이사불명/수취인불명: the business left,
 * closed and the premises were re-let, or was never there), when nobody is in (폐문부재: a
 * suspended shop), or when the carrier cannot place it (주소불명: a number that does not exist,
 * no number, an apartment block without 동/호). Causes are independent; any one returns it.
 */
export const returnedMail: Process = (m) => {
  const t = m.truth;
  const closed = t.status === 'closed'
    ? (t.corporate ? 0.45 + 0.08 * Math.min(t.closedYears, 5) : t.closedYears < 1 ? 0.12 : 0.25 + 0.05 * Math.min(t.closedYears, 6))
    : 0;
  const never = t.status === 'unregistered' ? 0.3 : 0; // often a mistyped number of a live business at a right address
  const away = t.movedAway ? 0.85 : 0;
  const shut = t.status === 'suspended' ? 0.35 : 0;
  const place = t.damage === 'wrong_number' ? 0.55 : t.damage === 'no_number' ? 0.4 : t.damage === 'road_typo' ? 0.06 : 0;
  const unit = t.unitMissing ? ({ apartment: 0.5, officetel: 0.6, office: 0.12, shop: 0.08, villa: 0.05, house: 0 } as const)[t.kind] : 0;
  return either(0.012, closed, never, away, shut, place, unit);
};

/**
 * "Thresholds": a carrier who knows the route. Clean letters almost never come back; what does
 * depends on combinations: closed companies always (their office is re-let), closed individuals
 * only after two years, food and beauty shops in apartment-block arcades when their unit is
 * missing, any letter whose number does not exist; stale lists (지번 form, old postal codes)
 * double everything.
 */
export const thresholds: Process = (m) => {
  const t = m.truth;
  let p = 0.008;
  if (t.status === 'closed') p = t.corporate ? 0.8 : t.closedYears >= 2 ? 0.55 : 0.06;
  else if (t.status === 'suspended') p = t.trade === 'food' || t.trade === 'beauty' ? 0.6 : 0.15;
  else if (t.status === 'unregistered') p = 0.5;
  if (t.movedAway) p = Math.max(p, 0.9);
  if (t.damage === 'wrong_number' || t.damage === 'no_number') p = Math.max(p, 0.5);
  if (t.unitMissing && (t.kind === 'apartment' || t.kind === 'officetel')) p = Math.max(p, (t.trade === 'food' || t.trade === 'beauty') ? 0.7 : 0.35);
  if (t.damage === 'jibun' || t.damage === 'old_zip') p = Math.min(0.97, p * 2);
  return p;
};

/**
 * Four customers whose lists differ: a rural wholesaler (its closed customers still live at the
 * address and take the mail), a bought marketing list (a fifth of its "active" businesses moved
 * long ago), a branch-heavy insurer (branches close and merge; head offices do not), and an
 * ordinary customer. Each account's letters otherwise come back as returned mail does.
 */
export const fourCustomers: Process = (m, account) => {
  const base = returnedMail(m, account);
  const t = m.truth;
  switch (account) {
    case 0:
      return t.status === 'closed' ? either(0.04, returnedMail({ ...m, truth: { ...t, status: 'active' } }, account)) : base;
    case 1:
      return t.status === 'active' ? either(base, 0.18) : base;
    case 2:
      return t.branch ? either(base, 0.3) : base * 0.6;
    default:
      return base;
  }
};

export interface WorldOptions {
  name: string;
  description: string;
  process: Process;
  seed: number;
  accounts: string[];
  /** per account */
  poolRows: number;
  testRows: number;
  buildings: number;
  /** per account: share of branches (code 85) and of businesses that moved without telling NTS */
  branchShare?: (account: number) => number;
  movedShare?: (account: number) => number;
}

/** A valid number whose digits 4–5 say what kind of business it is. */
function numberOf(r: () => number, corporate: boolean, branch: boolean, seen: Set<string>): string {
  for (;;) {
    const office = String(101 + Math.floor(r() * 800));
    const type = branch ? '85' : corporate ? (['81', '86', '87'] as const)[Math.floor(r() * 3)]! : String(1 + Math.floor(r() * 79)).padStart(2, '0');
    const serial = String(Math.floor(r() * 10_000)).padStart(4, '0');
    const nine = office + type + serial;
    const bno = nine + checkDigitOf(nine);
    if (!seen.has(bno)) {
      seen.add(bno);
      return bno;
    }
  }
}


const dateText = (d: Date) => d.toISOString().slice(0, 10).replace(/-/g, '');

export function buildWorld(o: WorldOptions, asOf: Date): World {
  const r = seededRandom(o.seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
  const syl = (n: number) => Array.from({ length: n }, () => pick(SYLLABLES)).join('');
  const directory = [...generateEntries(o.buildings, { seed: o.seed })];
  const apartments = new Set(directory.filter((e) => kindOf(e) === 'apartment').map((e) => e.buildingId));
  const records = new Map<string, NtsRecord>();
  const seen = new Set<string>();
  const trades = Object.keys(TRADE_WORDS) as Trade[];

  const mailing = (account: number): Mailing => {
    const branch = r() < (o.branchShare?.(account) ?? 0.04);
    const corporate = branch || r() < 0.3;
    const bno = numberOf(r, corporate, branch, seen);
    const u = r();
    const status = u < 0.8 ? 'active' : u < 0.92 ? 'closed' : u < 0.96 ? 'suspended' : 'unregistered';
    const closedYears = status === 'closed' ? -Math.log(1 - r()) * 2.2 : 0;
    const simplified = !corporate && r() < 0.35;
    if (status === 'unregistered') records.set(bno, unregisteredRecord(bno));
    else {
      const code = status === 'active' ? '01' : status === 'suspended' ? '02' : '03';
      records.set(bno, {
        b_no: bno, b_stt: { '01': '계속사업자', '02': '휴업자', '03': '폐업자' }[code], b_stt_cd: code,
        tax_type: simplified ? '부가가치세 간이과세자' : '부가가치세 일반과세자', tax_type_cd: simplified ? '02' : '01',
        end_dt: status === 'closed' ? dateText(new Date(asOf.getTime() - closedYears * 365.25 * 86_400_000)) : '',
        utcc_yn: 'N', tax_type_change_dt: '', invoice_apply_dt: '', rbf_tax_type: '해당없음', rbf_tax_type_cd: '99',
      });
    }
    const trade = r() < 0.7 ? pick(trades.filter((t) => t !== 'none')) : 'none';
    const name = `${corporate ? pick(['(주)', '주식회사 ', '']) : ''}${syl(2)}${pick(TRADE_WORDS[trade])}${branch ? ` ${syl(2)}지점` : ''}`;
    const e = pick(directory);
    const kind = kindOf(e);
    const multi = kind !== 'house';
    const unitMissing = multi && r() < 0.3;
    const movedAway = status === 'active' && r() < (o.movedShare?.(account) ?? 0.04) * (trade === 'food' || trade === 'beauty' || trade === 'retail' ? 2 : 1);
    const d = r();
    const damage = damageOf(d);
    const address = writeAddress(e, damage, unitMissing || !multi ? null : unitOf(kind, r), r, pick);
    const m = { account, bno, name, address, truth: { status, corporate, branch, trade, kind, closedYears, movedAway, unitMissing, damage } } as Omit<Mailing, 'p' | 'bounced'>;
    const p = o.process(m, account);
    return { ...m, p, bounced: r() < p };
  };
  const pool = o.accounts.map((_, a) => Array.from({ length: o.poolRows }, () => mailing(a)));
  const test = o.accounts.map((_, a) => Array.from({ length: o.testRows }, () => mailing(a)));
  return { name: o.name, description: o.description, accounts: o.accounts, directory, apartments, records, pool, test };
}
