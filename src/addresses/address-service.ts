// One address check: parse the free text, ask the directory for candidates, match. Directory
// failures propagate: whether to retry, fall back or answer "unknown" is the caller's decision.

import { matchAddress } from '../domain/address/match.ts';
import { parseAddress } from '../domain/address/parse.ts';
import type { AddressDirectory, AddressMatch, ParsedAddress } from '../domain/address/types.ts';

export type AddressCheck = AddressMatch & { parsed: ParsedAddress };

export interface AddressService {
  readonly source: AddressDirectory['source'];
  check(raw: string): Promise<AddressCheck>;
}

export function createAddressService(directory: AddressDirectory): AddressService {
  return {
    source: directory.source,
    async check(raw: string): Promise<AddressCheck> {
      const parsed = parseAddress(raw);
      // nothing written, nothing to look up: the same not_found shape, without a directory call
      const candidates = parsed.raw.trim() === '' ? [] : await directory.find(parsed);
      return { ...matchAddress(parsed, candidates), parsed };
    },
  };
}
