// The service's Ed25519 signing key, shared by every process through the database: the first
// process to start makes one, the others use it. Receipts are signed with the newest key; every
// key stays published, so a receipt signed years ago can still be checked.
import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject, sign } from 'node:crypto';
import type { EvidenceStore } from '../store/evidence-store.ts';

export interface PublishedKey {
  kid: string;
  alg: 'Ed25519';
  /** SPKI PEM */
  public_key_pem: string;
  public_key_jwk: { kty: 'OKP'; crv: 'Ed25519'; x: string };
  created_at: string;
}

export interface Signature {
  alg: 'Ed25519';
  kid: string;
  /** base64url of the Ed25519 signature over the payload's UTF-8 bytes */
  signature: string;
}

/** A key's id: the first 16 hex digits of the SHA-256 of its public key (DER). */
function kidOf(publicKey: KeyObject): string {
  return createHash('sha256').update(publicKey.export({ type: 'spki', format: 'der' })).digest('hex').slice(0, 16);
}

function published(kid: string, publicPem: string, createdAt: string): PublishedKey {
  const jwk = createPublicKey(publicPem).export({ format: 'jwk' });
  return { kid, alg: 'Ed25519', public_key_pem: publicPem, public_key_jwk: { kty: 'OKP', crv: 'Ed25519', x: String(jwk.x) }, created_at: createdAt };
}

export class Signer {
  readonly #kid: string;
  readonly #key: KeyObject;
  readonly #published: PublishedKey[];

  private constructor(kid: string, key: KeyObject, keys: PublishedKey[]) {
    this.#kid = kid;
    this.#key = key;
    this.#published = keys;
  }

  /** The newest key in the store, made and stored first if there is none. */
  static async load(store: EvidenceStore, now: Date): Promise<Signer> {
    let keys = await store.signingKeys();
    if (keys.length === 0) {
      const { privateKey, publicKey } = generateKeyPairSync('ed25519');
      await store.addSigningKey({
        kid: kidOf(publicKey),
        privateKey: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
        publicKey: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
        createdAt: now.toISOString(),
      });
      // another process may have stored its key first: everyone uses the newest stored
      keys = await store.signingKeys();
    }
    const newest = keys[0]!;
    return new Signer(newest.kid, createPrivateKey(newest.privateKey), keys.map((k) => published(k.kid, k.publicKey, k.createdAt)));
  }

  sign(payload: string): Signature {
    return { alg: 'Ed25519', kid: this.#kid, signature: sign(null, Buffer.from(payload, 'utf8'), this.#key).toString('base64url') };
  }

  /** Every key receipts may be signed with, newest first. */
  keys(): PublishedKey[] {
    return this.#published;
  }
}
