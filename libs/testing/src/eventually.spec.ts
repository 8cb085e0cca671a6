import { eventually } from './eventually';

describe('eventually', () => {
  it('answers the first value the probe gives', async () => {
    let calls = 0;
    await expect(
      eventually('the third call', async () => (++calls === 3 ? 'done' : undefined)),
    ).resolves.toBe('done');
    expect(calls).toBe(3);
  });

  it('lets I/O run between probes that resolve on microtasks alone', async () => {
    let timerFired = false;
    setTimeout(() => (timerFired = true), 1);
    // The probe never yields a macrotask turn itself; only eventually's pause lets the timer fire.
    await expect(eventually('the timer', () => Promise.resolve(timerFired))).resolves.toBe(true);
  });

  it('names what it waited for when time runs out', async () => {
    await expect(
      eventually('a value that never comes', async () => undefined, { timeoutMs: 30, intervalMs: 5 }),
    ).rejects.toThrow('timed out after 30 ms waiting for a value that never comes');
  });
});
