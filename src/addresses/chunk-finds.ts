// The directory questions of a chunk's addresses, asked together. LocalDirectory.findMany lets
// every address of a chunk go its way through find()'s steps at once; each question a step asks
// here waits for the event loop's turn, and whatever the chunk's addresses asked meanwhile goes to
// the store as one statement per kind of question (the store's *Many finders, each tested to
// answer every key as its single finder does). On PostgreSQL a statement is a round trip and its
// backend's work: asked one per address and step, the later steps of the bench's damaged
// addresses were most of a worker's ~250 statements a 1,000-row chunk (63 since). The answers
// are the single finders' own, so find() answers the same.
import type { DirectoryEntry } from '../domain/address/types.ts';
import { anywhereKey, type AnywhereKey, type AddressStore, lotKey, type LotKey, mainKey, type MainKey, roadInKey, type RoadInKey, roadKey, type RoadKey, roadNameKey, type RoadNameKey } from '../store/address-store.ts';

/** The finders find()'s later steps ask that a chunk can ask together; the store itself answers them one by one. */
export type Finds = Pick<AddressStore, 'findByJibun' | 'findByRelatedLot' | 'findByRoad' | 'findByRoadsAt' | 'findByRoadName'>;

interface Waiter {
  resolve: (found: DirectoryEntry[]) => void;
  reject: (error: unknown) => void;
}

/** One kind of question at one limit: its distinct keys and who waits for each. */
interface Queue<K> {
  ask: (keys: K[]) => Promise<Map<string, DirectoryEntry[]>>;
  keys: Map<string, K>;
  waiting: Map<string, Waiter[]>;
}

export class ChunkFinds implements Finds {
  readonly #store: AddressStore;
  readonly #queues = new Map<string, Queue<unknown>>();
  #scheduled = false;
  /** calls made to the store (each one statement, or a few for a long list of keys): tests, probes */
  calls = 0;

  constructor(store: AddressStore) {
    this.#store = store;
  }

  findByJibun(sido: string | null, sigungu: string | null, dong: string, main: number, sub: number | null, limit: number): Promise<DirectoryEntry[]> {
    if (sub === null || limit <= 0) return this.#direct(() => this.#store.findByJibun(sido, sigungu, dong, main, sub, limit));
    return this.#queue(`lot ${limit}`, (keys: LotKey[]) => this.#store.findByJibunMany(keys, limit), { sido, sigungu, dong, main, sub }, lotKey);
  }

  findByRelatedLot(sido: string | null, sigungu: string | null, dong: string, main: number, sub: number | null, limit: number): Promise<DirectoryEntry[]> {
    if (sub === null || limit <= 0) return this.#direct(() => this.#store.findByRelatedLot(sido, sigungu, dong, main, sub, limit));
    return this.#queue(`related ${limit}`, (keys: LotKey[]) => this.#store.findByRelatedLotMany(keys, limit), { sido, sigungu, dong, main, sub }, lotKey);
  }

  findByRoad(sigungu: string | null, roadName: string, main: number | null, sub: number | null, limit: number): Promise<DirectoryEntry[]> {
    if (main !== null && sub === null && sigungu === null && limit > 0) {
      return this.#queue(`main ${limit}`, (keys: MainKey[]) => this.#store.findByRoadMainMany(keys, limit), { roadName, main }, mainKey);
    }
    if (main === null && sub === null && sigungu !== null && limit > 0) {
      return this.#queue(`in ${limit}`, (keys: RoadInKey[]) => this.#store.findByRoadInMany(keys, limit), { sigungu, roadName }, roadInKey);
    }
    if (main === null || sub === null || limit <= 0) return this.#direct(() => this.#store.findByRoad(sigungu, roadName, main, sub, limit));
    if (sigungu === null) return this.#anywhere({ roadName, main, sub }, limit);
    return this.#queue(`road ${limit}`, (keys: RoadKey[]) => this.#store.findByRoadMany(keys, limit), { sigungu, roadName, main, sub }, roadKey);
  }

  findByRoadName(roadName: string, sido: string | null, limit: number): Promise<DirectoryEntry[]> {
    if (limit <= 0) return this.#direct(() => this.#store.findByRoadName(roadName, sido, limit));
    return this.#queue(`name ${limit}`, (keys: RoadNameKey[]) => this.#store.findByRoadNameMany(keys, limit), { roadName, sido }, roadNameKey);
  }

  /** findByRoad(null, name, main, sub, limit) of each name: findByRoadsAt's answer. */
  async findByRoadsAt(roadNames: readonly string[], main: number, sub: number, limit: number): Promise<Map<string, DirectoryEntry[]>> {
    if (limit <= 0) return new Map(roadNames.map((name) => [name, []]));
    const found = await Promise.all(roadNames.map((roadName) => this.#anywhere({ roadName, main, sub }, limit)));
    return new Map(roadNames.map((name, i) => [name, found[i]!]));
  }

  #anywhere(key: AnywhereKey, limit: number): Promise<DirectoryEntry[]> {
    return this.#queue(`anywhere ${limit}`, (keys: AnywhereKey[]) => this.#store.findByRoadAnywhereMany(keys, limit), key, anywhereKey);
  }

  #direct(ask: () => Promise<DirectoryEntry[]>): Promise<DirectoryEntry[]> {
    this.calls++;
    return ask();
  }

  #queue<K>(kind: string, ask: (keys: K[]) => Promise<Map<string, DirectoryEntry[]>>, key: K, text: (k: K) => string): Promise<DirectoryEntry[]> {
    let q = this.#queues.get(kind) as Queue<K> | undefined;
    if (!q) this.#queues.set(kind, (q = { ask, keys: new Map(), waiting: new Map() }) as Queue<unknown>);
    const t = text(key);
    q.keys.set(t, key);
    const { promise, resolve, reject } = Promise.withResolvers<DirectoryEntry[]>();
    const waiting = q.waiting.get(t);
    if (waiting) waiting.push({ resolve, reject });
    else q.waiting.set(t, [{ resolve, reject }]);
    if (!this.#scheduled) {
      this.#scheduled = true;
      // once every address has gone as far as it can without an answer: each waits on a
      // question here, or on the store for one asked alone
      setImmediate(() => this.#flush());
    }
    return promise;
  }

  #flush(): void {
    this.#scheduled = false;
    const queues = [...this.#queues.values()];
    this.#queues.clear();
    for (const q of queues) {
      this.calls++;
      q.ask([...q.keys.values()]).then(
        (found) => {
          // a list of its own each: a step may add to what it was given
          for (const [t, waiters] of q.waiting) for (const w of waiters) w.resolve([...(found.get(t) ?? [])]);
        },
        (error: unknown) => {
          for (const waiters of q.waiting.values()) for (const w of waiters) w.reject(error);
        },
      );
    }
  }
}
