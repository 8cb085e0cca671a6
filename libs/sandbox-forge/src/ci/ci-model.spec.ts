import {
  combineCiMarkers,
  findCiMarkers,
  NO_CI_MARKERS,
  runSandboxCi,
  runSandboxCiOnTree,
  seededUniform,
  semanticConflictsOf,
} from './ci-model';

describe('sandbox CI model', () => {
  const run = { seed: 'abc123', run: 1, defaultSeconds: 5 };

  it('passes a tree without markers in the default duration', () => {
    expect(runSandboxCiOnTree(['hello\n', 'world'], run)).toEqual({ conclusion: 'success', seconds: 5 });
  });

  it('fails a tree holding a `sandbox-ci: fail` line, behind a comment leader or not', () => {
    expect(runSandboxCiOnTree(['a', 'x\nsandbox-ci: fail\ny'], run).conclusion).toBe('failure');
    expect(runSandboxCiOnTree(['# sandbox-ci: fail'], run).conclusion).toBe('failure');
    expect(runSandboxCiOnTree(['  // sandbox-ci: fail  '], run).conclusion).toBe('failure');
  });

  it('ignores the marker when it is only part of a sentence', () => {
    expect(findCiMarkers(['please do not write sandbox-ci: fail here'])).toEqual(NO_CI_MARKERS);
    expect(findCiMarkers(['sandbox-ci: failing'])).toEqual(NO_CI_MARKERS);
  });

  it('takes the duration from the slowest `seconds` marker', () => {
    const markers = findCiMarkers(['sandbox-ci: seconds 20', 'sandbox-ci: seconds 7.5']);
    expect(runSandboxCi({ ...run, markers }).seconds).toBe(20);
    expect(runSandboxCiOnTree(['sandbox-ci: seconds 0'], run).seconds).toBe(0);
  });

  it('a failing tree still takes its duration', () => {
    expect(runSandboxCiOnTree(['sandbox-ci: fail\nsandbox-ci: seconds 3'], run)).toEqual({
      conclusion: 'failure',
      seconds: 3,
    });
  });

  it('draws a flaky outcome deterministically from the seed and run', () => {
    const tree = ['sandbox-ci: flaky 0.5'];
    for (let attempt = 1; attempt <= 20; attempt++) {
      const first = runSandboxCiOnTree(tree, { ...run, run: attempt });
      const again = runSandboxCiOnTree(tree, { ...run, run: attempt });
      expect(again).toEqual(first);
    }
  });

  it('fails about the given share of runs of a flaky tree', () => {
    const markers = findCiMarkers(['sandbox-ci: flaky 0.3']);
    const runs = 10_000;
    let failures = 0;
    for (let attempt = 1; attempt <= runs; attempt++) {
      if (
        runSandboxCi({ markers, seed: 'flaky-tree', run: attempt, defaultSeconds: 5 }).conclusion ===
        'failure'
      ) {
        failures++;
      }
    }
    expect(failures / runs).toBeGreaterThan(0.28);
    expect(failures / runs).toBeLessThan(0.32);
  });

  it('never fails a `flaky 0` tree and always fails a `flaky 1` tree', () => {
    for (let attempt = 1; attempt <= 50; attempt++) {
      expect(runSandboxCiOnTree(['sandbox-ci: flaky 0'], { ...run, run: attempt }).conclusion).toBe(
        'success',
      );
      expect(runSandboxCiOnTree(['sandbox-ci: flaky 1'], { ...run, run: attempt }).conclusion).toBe(
        'failure',
      );
    }
  });

  it('a batch combining a failing change with passing ones fails', () => {
    const batch = combineCiMarkers([
      findCiMarkers(['ok']),
      findCiMarkers(['sandbox-ci: fail']),
      NO_CI_MARKERS,
    ]);
    expect(runSandboxCi({ ...run, markers: batch }).conclusion).toBe('failure');
    const clean = combineCiMarkers([findCiMarkers(['ok']), NO_CI_MARKERS]);
    expect(runSandboxCi({ ...run, markers: clean }).conclusion).toBe('success');
  });

  it('a semantic conflict: two changes that pass alone fail in a tree that holds both', () => {
    const provider = ['change a\n# sandbox-ci: provides money-in-cents\n'];
    const consumer = ['change b\n// sandbox-ci: conflicts-with money-in-cents\n'];
    expect(runSandboxCiOnTree(provider, run).conclusion).toBe('success');
    expect(runSandboxCiOnTree(consumer, run).conclusion).toBe('success');
    // Files merge one by one: the tree of both changes holds both files.
    expect(runSandboxCiOnTree([...provider, ...consumer], run).conclusion).toBe('failure');
    const batch = combineCiMarkers([findCiMarkers(consumer), findCiMarkers(['ok']), findCiMarkers(provider)]);
    expect(semanticConflictsOf(batch)).toEqual(['money-in-cents']);
    expect(runSandboxCi({ ...run, markers: batch }).conclusion).toBe('failure');
  });

  it('only the same token conflicts, and a token is one word', () => {
    const markers = findCiMarkers([
      'sandbox-ci: provides api/v2',
      'sandbox-ci: conflicts-with api/v1',
      'sandbox-ci: provides two words',
    ]);
    expect(markers).toMatchObject({ provides: ['api/v2'], conflictsWith: ['api/v1'] });
    expect(runSandboxCi({ ...run, markers }).conclusion).toBe('success');
    expect(findCiMarkers(['sandbox-ci: conflicts-with'])).toEqual(NO_CI_MARKERS);
  });

  it('spreads its draws over [0, 1)', () => {
    const draws = Array.from({ length: 1000 }, (_, i) => seededUniform('s', i));
    expect(Math.min(...draws)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...draws)).toBeLessThan(1);
    expect(draws.filter((d) => d < 0.5).length).toBeGreaterThan(400);
    expect(draws.filter((d) => d < 0.5).length).toBeLessThan(600);
  });
});
