// Runs a model fit on a worker thread: fitting tens of thousands of labels takes CPU seconds,
// which must never stall the event loop that answers requests.
import { parentPort, Worker } from 'node:worker_threads';
import { type Example, fitAccountAdjustment, fitGlobal } from '../domain/model/fit.ts';
import { fitPooled } from '../domain/model/pooled-fit.ts';
import { pairName, withPairs } from '../domain/model/pairs.ts';
import { selectPairs } from '../domain/model/pair-selection.ts';
import type { ModelParams } from '../domain/model/types.ts';

export interface FitRequest {
  base: ModelParams;
  examples: { accountId: string; features: Record<string, number>; bounced: boolean }[];
  /** ISO time the fit is stamped with */
  now: string;
}

export interface FitResult {
  model: ModelParams;
  offsets: { accountId: string; offset: number; weights: Record<string, number>; trainedOn: number }[];
}

/**
 * The fit itself, pure; exported so it can also run inline (tests, the eval script). The shared
 * model has the main effects and the pairs the labels call for (pair-selection.ts), and weighs
 * accounts so that none moves another's scores (pooled-fit.ts); each account's adjustment (its
 * intercept and feature shifts, pairs included) is fitted on its own labels, in full.
 */
export function runFit(req: FitRequest): FitResult {
  const toExample = (e: FitRequest['examples'][number]) => ({ features: new Map(Object.entries(e.features)), bounced: e.bounced });
  const byAccount = new Map<string, Example[]>();
  for (const e of req.examples) {
    let list = byAccount.get(e.accountId);
    if (!list) byAccount.set(e.accountId, (list = []));
    list.push(toExample(e));
  }
  const opts = { now: new Date(req.now) };
  const expand = (pairs: readonly [string, string][]): void => {
    if (pairs.length > 0) for (const [a, list] of byAccount) byAccount.set(a, list.map((e) => ({ ...e, features: withPairs(pairs, e.features) })));
  };
  // the base's own pairs (the prior's causes that combine) are terms of every fit
  const basePairs = req.base.pairs ?? [];
  expand(basePairs);
  // Which pairs the model adds is chosen on every label's residuals from an unconstrained fit
  // of the base's terms, which scores nobody: terms, not weights. Their shared weights are then
  // bounded like every other (pooled-fit.ts), and each account's adjustment learns its own.
  const all = [...byAccount.values()].flat();
  const known = new Set(basePairs.map(([a, b]) => pairName(a, b)));
  const added = all.length > 0 ? selectPairs(fitGlobal(req.base, all, opts), all).filter(([a, b]) => !known.has(pairName(a, b))) : [];
  expand(added);
  const pairs = [...basePairs, ...added];
  let { model } = fitPooled(req.base, byAccount, opts);
  // the shared model carries the pairs the labels call for at weight 0 (pooled-fit.ts): each account's adjustment learns its own
  if (pairs.length > 0) model = { ...model, pairs };
  const offsets = [...byAccount].map(([accountId, list]) => ({ accountId, ...fitAccountAdjustment(model, list), trainedOn: list.length }));
  return { model, offsets };
}

/** Fits on a fresh worker thread and resolves with its result; the thread exits afterwards. */
export function fitInWorker(req: FitRequest): Promise<FitResult> {
  return new Promise((resolve, reject) => {
    // bounded as the main thread is under npm start (before, the start flags alone bounded it)
    const worker = new Worker(new URL(import.meta.url), { workerData: null, resourceLimits: { maxOldGenerationSizeMb: 1024 } });
    worker.once('message', (result: FitResult) => {
      resolve(result);
      void worker.terminate();
    });
    worker.once('error', reject);
    worker.once('exit', (code) => {
      if (code !== 0) reject(new Error(`model fit worker exited with code ${code}`));
    });
    worker.postMessage(req);
  });
}

// on the worker thread: one request, one answer
parentPort?.once('message', (req: FitRequest) => parentPort!.postMessage(runFit(req)));
