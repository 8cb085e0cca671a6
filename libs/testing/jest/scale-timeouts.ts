import { scaledWait } from '../src/time-scale';

// Every test file's timeout (the default, and each jest.setTimeout, which jest keeps under this
// symbol on the test's global) stretches with the machine's load.
const TEST_TIMEOUT = Symbol.for('TEST_TIMEOUT_SYMBOL');
let timeout = scaledWait(30_000);
Object.defineProperty(globalThis, TEST_TIMEOUT, {
  configurable: true,
  get: () => timeout,
  set: (ms: number) => {
    timeout = scaledWait(ms);
  },
});

// A hook's own timeout (`beforeAll(start, 120_000)`) stretches the same way.
type Hook = (fn: jest.ProvidesHookCallback, timeout?: number) => void;
const hooks = globalThis as unknown as Record<'beforeAll' | 'beforeEach' | 'afterAll' | 'afterEach', Hook>;
for (const name of ['beforeAll', 'beforeEach', 'afterAll', 'afterEach'] as const) {
  const unscaled = hooks[name];
  hooks[name] = (fn, ms) => unscaled(fn, ms === undefined ? undefined : scaledWait(ms));
}
