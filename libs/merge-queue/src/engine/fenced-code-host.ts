import type { CodeHost } from '@switchyard/code-host';

/**
 * The code host with `before` called ahead of each of its operations (not `metered` or `usage`,
 * which make no request of their own).
 */
export function beforeEachOperation(codeHost: CodeHost, before: (operation: string) => void): CodeHost {
  return new Proxy(codeHost, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver) as unknown;
      if (typeof value !== 'function' || property === 'metered' || property === 'usage') return value;
      return (...args: unknown[]) => {
        before(String(property));
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
}

/**
 * The code host as one reaction may use it: every operation first asks `assertOwnership` (the
 * reaction context's fencing), so a reactor that lost its ownership mid-reaction (a lease that
 * expired while it paused) performs no further call beside its successor.
 */
export function fencedCodeHost(codeHost: CodeHost, assertOwnership: () => void): CodeHost {
  return beforeEachOperation(codeHost, () => assertOwnership());
}
