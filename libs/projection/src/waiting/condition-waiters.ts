interface Waiter {
  isMet(): boolean;
  settle(result: boolean): void;
}

/**
 * Promises that resolve true as soon as their condition holds and false when their time is up.
 * Whoever changes the state calls recheck(); nothing polls. A waiter may take one last look
 * (lastChance) before giving up, for conditions whose wake-ups can be lost.
 */
export class ConditionWaiters {
  private readonly waiting = new Set<Waiter>();

  wait(isMet: () => boolean, timeoutMs: number, lastChance?: () => Promise<boolean>): Promise<boolean> {
    if (isMet()) return Promise.resolve(true);
    return new Promise<boolean>((resolve) => {
      const waiter: Waiter = {
        isMet,
        settle: (result) => {
          clearTimeout(timer);
          this.waiting.delete(waiter);
          resolve(result);
        },
      };
      const timer = setTimeout(() => {
        if (!lastChance) return waiter.settle(false);
        lastChance().then(
          (met) => waiter.settle(met),
          () => waiter.settle(false),
        );
      }, timeoutMs);
      // A pending read-your-writes wait must not keep a shutting-down process alive.
      timer.unref();
      this.waiting.add(waiter);
    });
  }

  recheck(): void {
    for (const waiter of [...this.waiting]) if (waiter.isMet()) waiter.settle(true);
  }

  get pending(): number {
    return this.waiting.size;
  }
}
