// One address check: parse the free text, ask the directory for candidates, match. Directory
// failures propagate: whether to retry, fall back or answer "unknown" is the caller's decision.

import { matchAddress } from '../domain/address/match.ts';
import { parseAddress } from '../domain/address/parse.ts';
import type { AddressCheck, AddressDirectory, DirectoryEntry, ParsedAddress } from '../domain/address/types.ts';
import { CheckMemo } from './check-memo.ts';

export type { AddressCheck } from '../domain/address/types.ts';

export interface AddressService {
  readonly source: AddressDirectory['source'];
  check(raw: string): Promise<AddressCheck>;
  /**
   * check() of many addresses (a batch chunk's), each distinct text once: its check, or the
   * error check() would have thrown for it.
   */
  checkMany(raws: readonly string[]): Promise<Map<string, AddressCheck | Error>>;
}

// nothing written, nothing to look up: the same not_found shape, without a directory call
const blank = (parsed: ParsedAddress): boolean => parsed.raw.trim() === '';

/**
 * The other reading of "종로구 세종로 1-68": a 법정동 named like a road (세종로, 신문로 …) with
 * its lot, when the road reading found nothing. (A 동 like "태평로1가" already reads as a 동.)
 */
function asLot(p: ParsedAddress): ParsedAddress | null {
  const road = p.road;
  if (!road || road.underground || p.jibun !== null || !/^[가-힣]{1,6}로$/.test(road.name)) return null;
  return { ...p, road: null, jibun: { dong: road.name, mountain: false, main: road.main, sub: road.sub }, form: 'jibun' };
}

/** The match of the road reading, or of the lot reading when the road one found no building it could be. */
async function matchEitherWay(directory: AddressDirectory, parsed: ParsedAddress, candidates: DirectoryEntry[]): Promise<AddressCheck> {
  const match = matchAddress(parsed, candidates);
  const lot = match.quality === 'not_found' ? asLot(parsed) : null;
  if (lot) {
    const other = matchAddress(lot, await directory.find(lot));
    if (other.quality !== 'not_found') return { ...other, parsed: lot };
  }
  return { ...match, parsed };
}

export interface AddressServiceOptions {
  /**
   * Checks kept by the text as written while the directory's version stands (CheckMemo), for a
   * directory that says its version; 0 or none: every check asks the directory.
   */
  memo?: number;
}

export function createAddressService(directory: AddressDirectory, opts: AddressServiceOptions = {}): AddressService {
  const checkOne = async (raw: string): Promise<AddressCheck> => {
    const parsed = parseAddress(raw);
    return blank(parsed) ? { ...matchAddress(parsed, []), parsed } : matchEitherWay(directory, parsed, await directory.find(parsed));
  };
  /** Candidates of each address, asked at once where the directory can (findMany), else one by one; an error in place of a list the directory failed. */
  const findAll = async (asked: readonly ParsedAddress[]): Promise<(DirectoryEntry[] | Error)[]> => {
    if (directory.findMany && asked.length > 1) {
      try {
        return await directory.findMany(asked);
      } catch (err) {
        return asked.map(() => toError(err));
      }
    }
    // one at a time (a remote directory): a failed address does not fail the others
    const out: (DirectoryEntry[] | Error)[] = [];
    for (const p of asked) out.push(await directory.find(p).catch(toError));
    return out;
  };
  const checkAll = async (raws: readonly string[]): Promise<Map<string, AddressCheck | Error>> => {
    const parsed = [...new Set(raws)].map(parseAddress);
    const asked = parsed.filter((p) => !blank(p));
    const lists = await findAll(asked);
    // in the order the texts were given; a lot reading's check below replaces its road's in place
    const out = new Map<string, AddressCheck | Error>();
    // matchEitherWay for the chunk: the lot readings of the roads that found nothing, asked together
    const either: { p: ParsedAddress; lot: ParsedAddress }[] = [];
    let i = 0;
    for (const p of parsed) {
      if (blank(p)) {
        out.set(p.raw, { ...matchAddress(p, []), parsed: p });
        continue;
      }
      const candidates = lists[i++]!;
      if (candidates instanceof Error) {
        out.set(p.raw, candidates);
        continue;
      }
      const match = { ...matchAddress(p, candidates), parsed: p };
      const lot = match.quality === 'not_found' ? asLot(p) : null;
      if (lot) either.push({ p, lot });
      out.set(p.raw, match);
    }
    const lotLists = await findAll(either.map((e) => e.lot));
    for (const [j, { p, lot }] of either.entries()) {
      const candidates = lotLists[j]!;
      const other = candidates instanceof Error ? candidates : matchAddress(lot, candidates);
      if (other instanceof Error) out.set(p.raw, other);
      else if (other.quality !== 'not_found') out.set(p.raw, { ...other, parsed: lot });
    }
    return out;
  };
  const version = directory.version?.bind(directory);
  if (!version || !opts.memo || opts.memo <= 0) return { source: directory.source, check: checkOne, checkMany: checkAll };

  const memo = new CheckMemo(opts.memo);
  return {
    source: directory.source,
    async check(raw: string): Promise<AddressCheck> {
      const v = await version();
      memo.at(v);
      const kept = memo.get(raw);
      if (kept) return kept;
      const check = await checkOne(raw);
      memo.set(raw, check, v);
      return check;
    },
    async checkMany(raws: readonly string[]): Promise<Map<string, AddressCheck | Error>> {
      // a directory that cannot say its version now fails the checks the same way without the memo
      const v = await version().catch(() => null);
      if (v === null) return checkAll(raws);
      memo.at(v);
      const out = new Map<string, AddressCheck | Error>();
      const rest: string[] = [];
      for (const raw of new Set(raws)) {
        const kept = memo.get(raw);
        if (kept) out.set(raw, kept);
        else rest.push(raw);
      }
      if (rest.length === 0) return out;
      for (const [raw, check] of await checkAll(rest)) {
        out.set(raw, check);
        if (!(check instanceof Error)) memo.set(raw, check, v);
      }
      return out;
    },
  };
}

const toError = (err: unknown): Error => (err instanceof Error ? err : new Error(String(err)));
