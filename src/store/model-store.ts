// Fitted models and each account's adjustment of the global one (intercept and feature shifts).
import type { AccountOffset } from '../domain/label.ts';
import type { ModelParams } from '../domain/model/types.ts';
import { iso, json } from './rows.ts';
import { OverSql } from './sql.ts';

export class ModelStore extends OverSql {
  async save(p: ModelParams): Promise<void> {
    await this.sql.run('INSERT INTO models (version, kind, params, trained_on, created_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT (version) DO NOTHING', [
      p.version, p.kind, JSON.stringify(p), p.trainedOn, p.createdAt,
    ]);
  }

  /** The newest fitted global model, or null when none was fitted yet. */
  async latest(): Promise<ModelParams | null> {
    const r = await this.sql.get("SELECT params FROM models WHERE kind = 'global' ORDER BY created_at DESC, version DESC LIMIT 1");
    return r ? json<ModelParams>(r.params) : null;
  }

  saveOffsets(offsets: readonly AccountOffset[]): Promise<void> {
    return this.sql.tx(async (t) => {
      for (const o of offsets) {
        await t.run(
          `INSERT INTO account_model_offsets (account_id, model_version, offset_logit, weights, trained_on, created_at) VALUES (?, ?, ?, ?, ?, ?)
           ON CONFLICT (account_id) DO UPDATE SET model_version = excluded.model_version, offset_logit = excluded.offset_logit,
             weights = excluded.weights, trained_on = excluded.trained_on, created_at = excluded.created_at`,
          [o.accountId, o.modelVersion, o.offset, JSON.stringify(o.weights), o.trainedOn, o.createdAt],
        );
      }
    });
  }

  async offset(accountId: string): Promise<AccountOffset | null> {
    const r = await this.sql.get('SELECT * FROM account_model_offsets WHERE account_id = ?', [accountId]);
    if (!r) return null;
    const weights = r.weights == null ? {} : json<Record<string, number>>(r.weights);
    return { accountId, modelVersion: String(r.model_version), offset: Number(r.offset_logit), weights, trainedOn: Number(r.trained_on), createdAt: iso(r.created_at) };
  }
}
