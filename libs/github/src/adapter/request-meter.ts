import { AsyncLocalStorage } from 'node:async_hooks';
import { countRequest, emptyUsage, type CodeHostUsage } from '@switchyard/code-host';

interface MeterScope {
  operation: string;
  /** Every `metered` scope the request runs inside, innermost last. */
  usages: CodeHostUsage[];
}

/**
 * The scope a request was sent from, carried in Octokit's request options (`options.request`,
 * which Octokit passes along and never sends) from the caller down to the HTTP call.
 */
export interface StampedScope {
  meter: RequestMeter;
  scope: MeterScope;
}

/**
 * Attributes each REST request to the port operation that made it and to every `metered` block
 * it runs in, so the engine's budget per merged pull request counts only that pull request's
 * calls. AsyncLocalStorage keeps concurrent operations apart while the request is in the caller's
 * hands; Octokit's throttling and retry plugins then queue requests and send them (again) from
 * their own schedulers, so the scope also travels with the request's options and is entered again
 * just before the request is sent (see `github-octokit.ts`).
 */
export class RequestMeter {
  private readonly scope = new AsyncLocalStorage<MeterScope>();
  readonly total: CodeHostUsage = emptyUsage();

  operation<T>(name: string, work: () => Promise<T>): Promise<T> {
    const outer = this.scope.getStore();
    return this.scope.run({ operation: name, usages: outer?.usages ?? [] }, work);
  }

  async metered<T>(work: () => Promise<T>): Promise<{ result: T; usage: CodeHostUsage }> {
    const usage = emptyUsage();
    const outer = this.scope.getStore();
    const result = await this.scope.run(
      { operation: outer?.operation ?? 'unattributed', usages: [...(outer?.usages ?? []), usage] },
      work,
    );
    return { result, usage };
  }

  /** The caller's scope, to carry with a request that may be sent from another context. */
  stamp(): StampedScope | null {
    const scope = this.scope.getStore();
    return scope ? { meter: this, scope } : null;
  }

  /** Runs `send` in a stamped scope, whichever context the scheduler sends it from. */
  within<T>(stamped: StampedScope, send: () => Promise<T>): Promise<T> {
    return this.scope.run(stamped.scope, send);
  }

  /**
   * Called once per HTTP request sent (retries included: each one spends rate limit). A request
   * other than GET or HEAD is a write, except authentication (`authentication`: minting a token).
   */
  count(method: string, authentication = false): void {
    const store = this.scope.getStore();
    const operation = store?.operation ?? 'unattributed';
    const write = !authentication && method.toUpperCase() !== 'GET' && method.toUpperCase() !== 'HEAD';
    countRequest(this.total, operation, write);
    for (const usage of store?.usages ?? []) countRequest(usage, operation, write);
  }
}
