// Evidence of checks: GET /verifications/{verification_id} (the account's own record, signed) and
// GET /.well-known/bizcheck-signing-key (the public keys that check the signatures; no key needed).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { EvidenceService } from '../evidence/evidence-service.ts';
import { requireAccount } from './auth.ts';
import { Problem, problemResponses } from './schemas.ts';

const SIGNING_KEY_PATH = '/.well-known/bizcheck-signing-key';

const PublicKey = Type.Object({
  kid: Type.String(),
  alg: Type.Literal('Ed25519'),
  public_key_pem: Type.String({ description: 'SPKI PEM' }),
  public_key_jwk: Type.Object({ kty: Type.Literal('OKP'), crv: Type.Literal('Ed25519'), x: Type.String() }),
  created_at: Type.String(),
});

const ReceiptBody = Type.Object({
  verification_id: Type.String(),
  b_no: Type.String(),
  api: Type.String({ description: 'status (상태조회) or validate (진위확인, with what was asked)' }),
  source: Type.String({ description: 'nts, or sandbox when the service runs without an NTS key' }),
  checked_at: Type.String({ description: 'when NTS answered' }),
  record: Type.Unknown({ description: 'the answer exactly as NTS sent it' }),
  record_sha256: Type.String({ description: 'SHA-256 (hex) of the record as canonical JSON (keys sorted, no spaces)' }),
  recorded_at: Type.String({ description: 'when the service kept it' }),
  payload: Type.String({ description: 'the canonical JSON text that is signed: {v, verification_id, account_id, b_no, api, source, checked_at, record_sha256, record}' }),
  signature: Type.Object({
    alg: Type.Literal('Ed25519'),
    kid: Type.String({ description: `the key, among those at ${SIGNING_KEY_PATH}` }),
    signature: Type.String({ description: 'base64url Ed25519 signature over the payload as UTF-8' }),
  }),
  verify_with: Type.String({ description: 'where the public keys are published' }),
});

export function evidenceRoutes(service: EvidenceService): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/verifications/:verification_id',
      {
        schema: {
          summary: 'The kept record of an NTS answer a result named (verification_id), signed by the service',
          description: 'For the account it was served to (404 otherwise). Kept for EVIDENCE_RETENTION_DAYS (five years by default), whatever happens to the list it came from.',
          params: Type.Object({ verification_id: Type.String({ maxLength: 64 }) }),
          response: { 200: ReceiptBody, ...problemResponses, 404: Problem },
        },
      },
      async (request) => {
        const { evidence: e, payload, signature } = await service.receipt(requireAccount(request), request.params.verification_id);
        return {
          verification_id: e.id, b_no: e.bno, api: e.api, source: e.source, checked_at: e.checkedAt, record: e.record, record_sha256: e.recordSha256,
          recorded_at: e.createdAt, payload, signature, verify_with: SIGNING_KEY_PATH,
        };
      },
    );
  };
}

/** The public keys, for anyone: no account is needed to check a receipt. */
export function signingKeyRoutes(service: EvidenceService): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      SIGNING_KEY_PATH,
      {
        schema: {
          summary: 'The public keys receipts are signed with (Ed25519), newest first',
          security: [],
          response: { 200: Type.Object({ keys: Type.Array(PublicKey) }) },
        },
      },
      async () => ({ keys: service.keys() }),
    );
  };
}
