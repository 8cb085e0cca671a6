import { AsyncLocalStorage } from 'node:async_hooks';
import { countRequest, emptyUsage, type CodeHostUsage } from '../port/code-host-usage';

interface MeterScope {
  operation: string;
  /** Every `metered` scope the request runs inside, innermost last. */
  usages: CodeHostUsage[];
}

/**
 * Attributes each REST request to the port operation that made it and to every `metered` block
 * it runs in. AsyncLocalStorage keeps concurrent operations apart, so the engine's budget per
 * merged pull request counts only that pull request's calls.
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

  /** Called once per HTTP request sent (retries included: each one spends rate limit). */
  count(method: string): void {
    const store = this.scope.getStore();
    const operation = store?.operation ?? 'unattributed';
    const write = method.toUpperCase() !== 'GET' && method.toUpperCase() !== 'HEAD';
    countRequest(this.total, operation, write);
    for (const usage of store?.usages ?? []) countRequest(usage, operation, write);
  }
}
