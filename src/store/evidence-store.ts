// Evidence records and the service's signing keys. A record is written once and never changed:
// the same answer served again to the same account is the same id, and inserting it again does
// nothing. Records go at the end of EVIDENCE_RETENTION_DAYS, whatever happens to the lists.
import type { Evidence } from '../domain/evidence.ts';
import { iso, type Row } from './rows.ts';
import { OverSql } from './sql.ts';

/** rows per INSERT: 9 parameters each */
const INSERT_ROWS = 400;

export interface SigningKeyRow {
  kid: string;
  /** PKCS#8 PEM */
  privateKey: string;
  /** SPKI PEM */
  publicKey: string;
  createdAt: string;
}

function toEvidence(r: Row): Evidence & { createdAt: string } {
  return {
    id: String(r.id),
    accountId: String(r.account_id),
    bno: String(r.b_no),
    api: String(r.api) as Evidence['api'],
    source: String(r.source),
    checkedAt: iso(r.checked_at),
    record: JSON.parse(String(r.record)) as unknown,
    recordSha256: String(r.record_sha256),
    createdAt: iso(r.created_at),
  };
}

export class EvidenceStore extends OverSql {
  /** Keeps the records not kept yet (by id), in as few statements as their number allows. */
  async record(es: readonly Evidence[], now: Date): Promise<void> {
    const at = now.toISOString();
    const unique = [...new Map(es.map((e) => [e.id, e])).values()];
    for (let i = 0; i < unique.length; i += INSERT_ROWS) {
      const part = unique.slice(i, i + INSERT_ROWS);
      await this.sql.run(
        `INSERT INTO evidence (id, account_id, b_no, api, source, checked_at, record, record_sha256, created_at)
         VALUES ${part.map(() => '(?, ?, ?, ?, ?, ?, ?, ?, ?)').join(', ')} ON CONFLICT (id) DO NOTHING`,
        part.flatMap((e) => [e.id, e.accountId, e.bno, e.api, e.source, e.checkedAt, e.recordJson ?? JSON.stringify(e.record), e.recordSha256, at]),
      );
    }
  }

  /** The account's record; null for another account's or an unknown id. */
  async get(accountId: string, id: string): Promise<(Evidence & { createdAt: string }) | null> {
    const r = await this.sql.get('SELECT * FROM evidence WHERE id = ? AND account_id = ?', [id, accountId]);
    return r ? toEvidence(r) : null;
  }

  /** Deletes up to `limit` records kept since before `cutoff`; returns how many. */
  forgetBefore(cutoff: Date, limit: number): Promise<number> {
    return this.sql.run('DELETE FROM evidence WHERE id IN (SELECT id FROM evidence WHERE created_at < ? ORDER BY created_at LIMIT ?)', [cutoff.toISOString(), limit]);
  }

  /** Signing keys, newest first. */
  async signingKeys(): Promise<SigningKeyRow[]> {
    return (await this.sql.all('SELECT * FROM signing_keys ORDER BY created_at DESC, kid')).map((r) => ({
      kid: String(r.kid), privateKey: String(r.private_key), publicKey: String(r.public_key), createdAt: iso(r.created_at),
    }));
  }

  /** Adds a key unless one with its id exists (processes starting together each offer theirs). */
  async addSigningKey(k: SigningKeyRow): Promise<void> {
    await this.sql.run('INSERT INTO signing_keys (kid, private_key, public_key, created_at) VALUES (?, ?, ?, ?) ON CONFLICT (kid) DO NOTHING', [
      k.kid, k.privateKey, k.publicKey, k.createdAt,
    ]);
  }
}
