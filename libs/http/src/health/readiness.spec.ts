import { runReadinessChecks } from './readiness';

describe('runReadinessChecks', () => {
  it('is ready when every contributor resolves', async () => {
    const report = await runReadinessChecks([
      { name: 'a', check: async () => undefined },
      { name: 'b', check: async () => undefined },
    ]);
    expect(report).toEqual({
      ready: true,
      checks: [
        { name: 'a', ok: true },
        { name: 'b', ok: true },
      ],
    });
  });

  it('names the failing contributor and its reason', async () => {
    const report = await runReadinessChecks([
      { name: 'database', check: async () => Promise.reject(new Error('connection refused')) },
      { name: 'event_store', check: async () => undefined },
    ]);
    expect(report.ready).toBe(false);
    expect(report.checks[0]).toEqual({ name: 'database', ok: false, error: 'connection refused' });
  });

  it('gives up on a contributor that never answers', async () => {
    const report = await runReadinessChecks(
      [{ name: 'stuck', check: () => new Promise(() => undefined) }],
      10,
    );
    expect(report.checks[0]).toEqual({ name: 'stuck', ok: false, error: 'no answer within 10 ms' });
  });
});
