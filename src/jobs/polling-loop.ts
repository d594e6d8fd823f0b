// A background loop that runs rounds of work: again at once while a round found a full load,
// otherwise after `pollMs` or as soon as notify() says something arrived. A failed round is
// logged and retried after the poll interval; stop() waits for the round in progress.
export interface Logger {
  error(o: object, m: string): void;
}

export class PollingLoop {
  readonly #round: () => Promise<boolean>;
  readonly #pollMs: number;
  readonly #name: string;
  readonly #log: Logger | undefined;
  #running = false;
  #loop: Promise<void> | undefined;
  #wake: (() => void) | undefined;
  #pending = false;

  /** `round` resolves true when there may be more work right away. */
  constructor(name: string, round: () => Promise<boolean>, opts: { pollMs: number; log?: Logger }) {
    this.#name = name;
    this.#round = round;
    this.#pollMs = opts.pollMs;
    this.#log = opts.log;
  }

  start(): void {
    if (this.#running) return;
    this.#running = true;
    this.#loop = this.#run();
  }

  notify(): void {
    this.#pending = true;
    this.#wake?.();
  }

  async stop(): Promise<void> {
    this.#running = false;
    this.#wake?.();
    await this.#loop;
  }

  async #run(): Promise<void> {
    while (this.#running) {
      this.#pending = false;
      let more = false;
      try {
        more = await this.#round();
      } catch (err) {
        this.#log?.error({ err }, `${this.#name} round failed; trying again after the poll interval`);
      }
      if (more || this.#pending || !this.#running) continue;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, this.#pollMs);
        this.#wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.#wake = undefined;
    }
  }
}
