/**
 * A level-triggered wake-up: notify() before wait() is not lost, so a poller that reads, then
 * waits, never sleeps through an append that landed in between.
 */
export class Wakeup {
  private pending = false;
  private waiters: Array<() => void> = [];

  notify(): void {
    this.pending = true;
    const waiters = this.waiters;
    this.waiters = [];
    for (const resolve of waiters) resolve();
  }

  async wait(signal: AbortSignal, timeoutMs: number): Promise<void> {
    if (this.pending || signal.aborted) {
      this.pending = false;
      return;
    }
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        signal.removeEventListener('abort', done);
        this.waiters = this.waiters.filter((w) => w !== done);
        resolve();
      };
      const timer = setTimeout(done, timeoutMs);
      signal.addEventListener('abort', done, { once: true });
      this.waiters.push(done);
    });
    this.pending = false;
  }
}
