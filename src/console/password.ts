// Console passwords: scrypt (memory-hard, node:crypto) with a per-user salt, the parameters
// stored with the hash so they can be raised later without breaking existing passwords.
// N=2^16, r=8, p=2 is one of OWASP's equivalent scrypt settings (64 MiB, ~0.4 s here); at most
// the libuv pool's 4 threads run it at once, which bounds the memory a burst of sign-ins takes.
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

const CURRENT = { N: 2 ** 16, r: 8, p: 2 } as const;
const KEY_BYTES = 32;
const SALT_BYTES = 16;
export const PASSWORD_MIN = 10;
export const PASSWORD_MAX = 256;

function derive(password: string, salt: Buffer, o: { N: number; r: number; p: number }): Promise<Buffer> {
  const options: ScryptOptions = { N: o.N, r: o.r, p: o.p, maxmem: 256 * o.N * o.r };
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFKC'), salt, KEY_BYTES, options, (err, key) => (err ? reject(err) : resolve(key)));
  });
}

/** Why a password is refused, or null. Length only (NIST SP 800-63B): no composition rules. */
export function passwordProblem(password: string): string | null {
  // characters as people count them: a Hangul syllable or an emoji is one
  const length = [...new Intl.Segmenter('ko', { granularity: 'grapheme' }).segment(password.normalize('NFKC'))].length;
  if (length < PASSWORD_MIN) return `the password must be at least ${PASSWORD_MIN} characters`;
  if (length > PASSWORD_MAX) return `the password must be at most ${PASSWORD_MAX} characters`;
  return null;
}

/** "scrypt$N$r$p$salt$hash", salt and hash in base64url. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const key = await derive(password, salt, CURRENT);
  return ['scrypt', CURRENT.N, CURRENT.r, CURRENT.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

function parse(stored: string): { N: number; r: number; p: number; salt: Buffer; key: Buffer } | null {
  const m = /^scrypt\$(\d+)\$(\d+)\$(\d+)\$([\w-]+)\$([\w-]+)$/.exec(stored);
  if (!m) return null;
  const [N, r, p] = [Number(m[1]), Number(m[2]), Number(m[3])];
  // bounds keep a tampered row from asking for gigabytes
  if (N < 2 || N > 2 ** 20 || (N & (N - 1)) !== 0 || r < 1 || r > 32 || p < 1 || p > 16) return null;
  return { N, r, p, salt: Buffer.from(m[4]!, 'base64url'), key: Buffer.from(m[5]!, 'base64url') };
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const h = parse(stored);
  if (!h || h.key.length !== KEY_BYTES) return false;
  const key = await derive(password, h.salt, h);
  return timingSafeEqual(key, h.key);
}

// made once per process: checking against it costs what checking a real password costs
let dummy: Promise<string> | undefined;

/** The same work as verifyPassword, for an email with no account: the answer time tells nothing. */
export async function verifyAgainstNothing(password: string): Promise<false> {
  await verifyPassword(password, await (dummy ??= hashPassword(randomBytes(16).toString('hex'))));
  return false;
}
