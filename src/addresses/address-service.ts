// One address check: parse the free text, ask the directory for candidates, match. Directory
// failures propagate: whether to retry, fall back or answer "unknown" is the caller's decision.

import { matchAddress } from '../domain/address/match.ts';
import { parseAddress } from '../domain/address/parse.ts';
import type { AddressDirectory, AddressMatch, DirectoryEntry, ParsedAddress } from '../domain/address/types.ts';

export type AddressCheck = AddressMatch & { parsed: ParsedAddress };

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

export function createAddressService(directory: AddressDirectory): AddressService {
  return {
    source: directory.source,
    async check(raw: string): Promise<AddressCheck> {
      const parsed = parseAddress(raw);
      const candidates = blank(parsed) ? [] : await directory.find(parsed);
      return { ...matchAddress(parsed, candidates), parsed };
    },
    async checkMany(raws: readonly string[]): Promise<Map<string, AddressCheck | Error>> {
      const parsed = [...new Set(raws)].map(parseAddress);
      const asked = parsed.filter((p) => !blank(p));
      const found = new Map<ParsedAddress, DirectoryEntry[] | Error>();
      if (directory.findMany && asked.length > 1) {
        try {
          const lists = await directory.findMany(asked);
          asked.forEach((p, i) => found.set(p, lists[i]!));
        } catch (err) {
          for (const p of asked) found.set(p, toError(err));
        }
      } else {
        // one at a time (a remote directory): a failed address does not fail the others
        for (const p of asked) found.set(p, await directory.find(p).catch(toError));
      }
      const out = new Map<string, AddressCheck | Error>();
      for (const p of parsed) {
        const candidates = found.get(p) ?? [];
        out.set(p.raw, candidates instanceof Error ? candidates : { ...matchAddress(p, candidates), parsed: p });
      }
      return out;
    },
  };
}

const toError = (err: unknown): Error => (err instanceof Error ? err : new Error(String(err)));
