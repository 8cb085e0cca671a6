import { seededRandom } from '@switchyard/kernel';
import { CommitHistory } from '@switchyard/test-engine';

/** Known truth for one synthetic test (performance-anchors §4.3). */
export type TruthKind = 'stable' | 'flaky' | 'broken' | 'fixed';

export interface SyntheticTest {
  name: string;
  kind: TruthKind;
  /** Per-execution failure probability of a flaky test. */
  flakeRate: number;
  /** Broken and fixed tests fail on every execution from this run on… */
  brokenFrom: number;
  /** …and fixed ones pass again from this run. */
  fixedFrom: number;
}

/** A seeded PRNG (seededRandom), so every run of the benchmark sees the same suite. */
export const seeded = (seed: number): (() => number) => seededRandom(seed).next;

export const FLAKE_RATES = [0.01, 0.02, 0.05, 0.1, 0.2] as const;

/** 2% flaky (rates 1–20%), 1% broken from a random run, 1% broken then fixed, the rest stable. */
export function syntheticSuite(tests: number, runs: number, random: () => number): SyntheticTest[] {
  return Array.from({ length: tests }, (_, index) => {
    const share = index / tests;
    const name = `suite/test_${index}.py::test_${index}`;
    const at = (from: number, to: number) => from + Math.floor(random() * (to - from));
    if (share < 0.02)
      return {
        name,
        kind: 'flaky',
        flakeRate: FLAKE_RATES[index % FLAKE_RATES.length]!,
        brokenFrom: Infinity,
        fixedFrom: Infinity,
      };
    if (share < 0.03)
      return { name, kind: 'broken', flakeRate: 0, brokenFrom: at(0, runs - 10), fixedFrom: Infinity };
    if (share < 0.04) {
      const from = at(0, runs - 40);
      return { name, kind: 'fixed', flakeRate: 0, brokenFrom: from, fixedFrom: from + at(3, 20) };
    }
    return { name, kind: 'stable', flakeRate: 0, brokenFrom: Infinity, fixedFrom: Infinity };
  });
}

export function outcome(test: SyntheticTest, run: number, random: () => number): 'passed' | 'failed' {
  if (run >= test.brokenFrom && run < test.fixedFrom) return 'failed';
  return random() < test.flakeRate ? 'failed' : 'passed';
}

/** Per test: the verdict after each run, ours and the same-commit rule's, with one retry of failures. */
export interface DetectionTrace {
  test: SyntheticTest;
  /** Run index (1-based count of runs seen) at which each detector first said flaky; null if never. */
  oursFlakyAt: number | null;
  sameCommitFlakyAt: number | null;
  /** Labels after each run. */
  ours: ('healthy' | 'flaky' | 'broken')[];
}

/** Every run is one commit; a failed execution is retried once on the same commit, as CI retries do. */
export function simulate(
  suite: readonly SyntheticTest[],
  runs: number,
  random: () => number,
): DetectionTrace[] {
  return suite.map((test) => {
    const history = new CommitHistory();
    const ours: DetectionTrace['ours'] = [];
    let oursFlakyAt: number | null = null;
    let sameCommitFlakyAt: number | null = null;
    for (let run = 0; run < runs; run++) {
      const commit = `c${run}`;
      const first = outcome(test, run, random);
      history.record(commit, first);
      if (first === 'failed') {
        const retry = outcome(test, run, random);
        history.record(commit, retry);
        if (retry === 'passed' && sameCommitFlakyAt === null) sameCommitFlakyAt = run + 1;
      }
      const status = history.verdict().status;
      ours.push(status);
      if (status === 'flaky' && oursFlakyAt === null) oursFlakyAt = run + 1;
    }
    return { test, oursFlakyAt, sameCommitFlakyAt, ours };
  });
}
