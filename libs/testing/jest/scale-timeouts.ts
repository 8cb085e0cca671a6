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

// A test's own timeout (`it(name, fn, 120_000)`, `it.each(table)(name, fn, ms)`, `it.only`, …)
// stretches the same way: jest-circus hands it to the test as given.
type TestTimeoutScaler = (timeout?: number) => number | undefined;
const scaleTimeout: TestTimeoutScaler = (ms) => (ms === undefined ? undefined : scaledWait(ms));
type AnyTest = ((name: unknown, fn?: unknown, timeout?: number) => unknown) & Record<string, unknown>;

function scalingTimeouts(original: AnyTest): AnyTest {
  const scaled = ((name: unknown, fn?: unknown, ms?: number) =>
    original(name, fn, scaleTimeout(ms))) as AnyTest;
  for (const [key, value] of Object.entries(original)) scaled[key] = value;
  if (typeof original.each === 'function') {
    const each = original.each as (...table: unknown[]) => AnyTest;
    scaled.each = (...table: unknown[]) => {
      const bound = each(...table);
      return (name: unknown, fn?: unknown, ms?: number) => bound(name, fn, scaleTimeout(ms));
    };
  }
  for (const variant of ['only', 'concurrent', 'failing'] as const)
    if (typeof original[variant] === 'function')
      scaled[variant] = scalingTimeouts(original[variant] as AnyTest);
  return scaled;
}

const tests = globalThis as unknown as Record<'it' | 'test', AnyTest>;
tests.it = scalingTimeouts(tests.it);
tests.test = scalingTimeouts(tests.test);
