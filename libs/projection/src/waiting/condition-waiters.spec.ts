import { ConditionWaiters } from './condition-waiters';

describe('ConditionWaiters', () => {
  it('resolves true at once when the condition already holds', async () => {
    const waiters = new ConditionWaiters();
    await expect(waiters.wait(() => true, 1)).resolves.toBe(true);
    expect(waiters.pending).toBe(0);
  });

  it('resolves true on the recheck that finds the condition met, and not before', async () => {
    const waiters = new ConditionWaiters();
    let met = false;
    const waiting = waiters.wait(() => met, 60_000);
    waiters.recheck();
    expect(waiters.pending).toBe(1);
    met = true;
    waiters.recheck();
    await expect(waiting).resolves.toBe(true);
    expect(waiters.pending).toBe(0);
  });

  it('resolves false when the time is up', async () => {
    const waiters = new ConditionWaiters();
    await expect(waiters.wait(() => false, 5)).resolves.toBe(false);
    expect(waiters.pending).toBe(0);
  });

  it('takes its last chance before giving up', async () => {
    const waiters = new ConditionWaiters();
    await expect(
      waiters.wait(
        () => false,
        5,
        async () => true,
      ),
    ).resolves.toBe(true);
    await expect(
      waiters.wait(
        () => false,
        5,
        async () => Promise.reject(new Error('down')),
      ),
    ).resolves.toBe(false);
  });
});
