// Checks a bizcheck receipt offline, knowing only the service's published public keys:
//   node examples/verify-receipt.ts receipt.json keys.json
// receipt.json: the body of GET /verifications/{verification_id}; keys.json: the body of
// GET /.well-known/bizcheck-signing-key. Exits 0 when the signature is the service's and the
// receipt's fields are the ones signed; 1 (saying why) otherwise. Uses nothing but node:crypto,
// so an auditor can read every line of what it trusts.
import { createHash, createPublicKey, verify } from 'node:crypto';
import { readFileSync } from 'node:fs';

/** JSON with keys sorted at every level and no whitespace (what the service signs). */
function canonical(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  const keys = Object.keys(value).toSorted((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`).join(',')}}`;
}

interface Receipt {
  verification_id: string;
  b_no: string;
  api: string;
  source: string;
  checked_at: string;
  record: unknown;
  record_sha256: string;
  payload: string;
  signature: { alg: string; kid: string; signature: string };
}

/** Why the receipt does not hold, or null when it does. */
export function checkReceipt(receipt: Receipt, keys: { keys: { kid: string; public_key_pem: string }[] }): string | null {
  const key = keys.keys.find((k) => k.kid === receipt.signature.kid);
  if (!key) return `no published key ${receipt.signature.kid}`;
  if (receipt.signature.alg !== 'Ed25519') return `unexpected algorithm ${receipt.signature.alg}`;
  const ok = verify(null, Buffer.from(receipt.payload, 'utf8'), createPublicKey(key.public_key_pem), Buffer.from(receipt.signature.signature, 'base64url'));
  if (!ok) return 'the signature does not match the payload';
  // the signature covers the payload; the receipt's fields must be the payload's
  const signed = JSON.parse(receipt.payload) as Record<string, unknown>;
  if (receipt.payload !== canonical(signed)) return 'the payload is not canonical JSON';
  for (const f of ['verification_id', 'b_no', 'api', 'source', 'checked_at', 'record_sha256'] as const) {
    if (signed[f] !== receipt[f]) return `${f} differs from what was signed`;
  }
  if (canonical(signed.record) !== canonical(receipt.record)) return 'the record differs from what was signed';
  const hash = createHash('sha256').update(canonical(receipt.record), 'utf8').digest('hex');
  if (hash !== receipt.record_sha256) return 'record_sha256 is not the hash of the record';
  return null;
}

if (import.meta.main) {
  const [receiptFile, keysFile] = process.argv.slice(2);
  if (!receiptFile || !keysFile) {
    console.error('usage: node examples/verify-receipt.ts receipt.json keys.json');
    process.exit(2);
  }
  const receipt = JSON.parse(readFileSync(receiptFile, 'utf8')) as Receipt;
  const why = checkReceipt(receipt, JSON.parse(readFileSync(keysFile, 'utf8')) as { keys: { kid: string; public_key_pem: string }[] });
  if (why) {
    console.error(`NOT VALID: ${why}`);
    process.exit(1);
  }
  console.log(`valid: ${receipt.verification_id} — ${receipt.b_no} as NTS answered at ${receipt.checked_at} (key ${receipt.signature.kid})`);
}
