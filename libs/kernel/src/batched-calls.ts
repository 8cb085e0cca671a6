/**
 * Gathers the calls made during one turn of the event loop and serves them with one `flush`, so
 * that many callers woken by the same thing (every processor after an append) cost one statement
 * instead of one each. While a flush is in flight, new calls wait and go in the next one, which
 * batches them further under load. `flush` answers each item, in order; when it throws, every
 * caller of that batch gets the error.
 */
export class BatchedCalls<T, R> {
  private pending: Array<{ item: T; resolve: (result: R) => void; reject: (error: unknown) => void }> = [];
  private scheduled = false;
  private inFlight = false;

  constructor(private readonly flush: (items: readonly T[]) => Promise<readonly R[]>) {}

  call(item: T): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.pending.push({ item, resolve, reject });
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.scheduled || this.inFlight) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      void this.run();
    });
  }

  private async run(): Promise<void> {
    const batch = this.pending;
    this.pending = [];
    if (batch.length === 0) return;
    this.inFlight = true;
    try {
      const results = await this.flush(batch.map((call) => call.item));
      batch.forEach((call, i) => call.resolve(results[i]!));
    } catch (error) {
      for (const call of batch) call.reject(error);
    } finally {
      this.inFlight = false;
      if (this.pending.length > 0) this.schedule();
    }
  }
}
