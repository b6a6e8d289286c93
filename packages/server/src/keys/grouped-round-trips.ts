/** One key's place in a group: what it brings, and its caller's answer. */
interface Queued<I, O> {
  input: I;
  promise: Promise<O>;
  resolve(value: O): void;
  reject(error: unknown): void;
}

/**
 * Round trips of many keys made as one statement: the work of several callers (several API keys' credentials,
 * last-use stamps or rate-limit leases) goes to the database together, by group commit. A call starts a round
 * trip at once when none is under way (no caller waits longer than it would alone); calls made meanwhile queue
 * and go together in the next one when it ends. A `delayMs` gathers for that long first, for work nobody waits
 * on (a background refresh). A key already queued joins that call's answer rather than being sent twice.
 *
 * `run` gets each key once with its input and answers by key; a key it leaves out gets `undefined`. If it
 * fails, every caller of that group gets its error.
 */
export class GroupedRoundTrips<K, I, O> {
  private queued = new Map<K, Queued<I, O | undefined>>();
  /** The round trip under way, if one is. */
  private running: Promise<void> | undefined;
  private timer: NodeJS.Timeout | NodeJS.Immediate | undefined;

  constructor(
    private readonly run: (group: ReadonlyMap<K, I>) => Promise<ReadonlyMap<K, O>>,
    private readonly delayMs = 0,
  ) {}

  /** Whether `key` waits for the next round trip. */
  has(key: K): boolean {
    return this.queued.has(key);
  }

  /** The answer for `key` from the next round trip (the one it is already queued for, if it is). */
  add(key: K, input: I): Promise<O | undefined> {
    const already = this.queued.get(key);
    if (already) return already.promise;
    let resolve: (value: O | undefined) => void = () => {};
    let reject: (error: unknown) => void = () => {};
    const promise = new Promise<O | undefined>((yes, no) => {
      resolve = yes;
      reject = no;
    });
    this.queued.set(key, { input, promise, resolve, reject });
    this.schedule();
    return promise;
  }

  /** Sends what is queued now, without its delay, and resolves once nothing is queued or under way. */
  async flush(): Promise<void> {
    if (this.timer) {
      // schedule() made a timeout when there is a delay, an immediate when not.
      if (this.delayMs > 0) clearTimeout(this.timer as NodeJS.Timeout);
      else clearImmediate(this.timer as NodeJS.Immediate);
      this.timer = undefined;
    }
    while (this.running || this.queued.size > 0) {
      if (this.running) await this.running;
      else await this.send();
    }
  }

  private schedule(): void {
    if (this.running || this.timer || this.queued.size === 0) return;
    const go = () => {
      this.timer = undefined;
      void this.send();
    };
    // Callers in the same turn of the event loop go together even without a delay.
    // A delayed group is background work: it does not hold the process open.
    this.timer = this.delayMs > 0 ? setTimeout(go, this.delayMs).unref() : setImmediate(go);
  }

  private send(): Promise<void> {
    if (this.running || this.queued.size === 0) return this.running ?? Promise.resolve();
    const group = this.queued;
    this.queued = new Map();
    this.running = this.answer(group).finally(() => {
      this.running = undefined;
      this.schedule();
    });
    return this.running;
  }

  private async answer(group: Map<K, Queued<I, O | undefined>>): Promise<void> {
    try {
      const answers = await this.run(new Map([...group].map(([key, item]) => [key, item.input])));
      for (const [key, item] of group) item.resolve(answers.get(key));
    } catch (error) {
      for (const item of group.values()) item.reject(error);
    }
  }
}
