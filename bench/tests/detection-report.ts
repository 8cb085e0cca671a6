import { type DetectionTrace, FLAKE_RATES } from './synthetic-suite';

const median = (values: number[]): number | null => {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};
const ratio = (part: number, whole: number) => (whole === 0 ? 1 : part / whole);
const fixed = (value: number | null, digits = 2) => (value === null ? 'n/a' : value.toFixed(digits));

/** Precision and recall of "flaky within n runs" for flake rates ≥ minRate, and of "broken" at the end. */
export function detectionReport(
  traces: readonly DetectionTrace[],
  runs: number,
): { lines: string[]; goalsMet: boolean } {
  const lines: string[] = [];
  let goalsMet = true;
  for (const n of [10, 50, 200].filter((value) => value <= runs)) {
    const flaggedWithin = (trace: DetectionTrace) => trace.ours.slice(0, n).includes('flaky');
    const flagged = traces.filter(flaggedWithin);
    const truePositives = flagged.filter((trace) => trace.test.kind === 'flaky');
    const relevant = traces.filter((trace) => trace.test.kind === 'flaky' && trace.test.flakeRate >= 0.05);
    const precision = ratio(truePositives.length, flagged.length);
    const recall = ratio(relevant.filter(flaggedWithin).length, relevant.length);
    const perRate = FLAKE_RATES.map((rate) => {
      const ofRate = traces.filter((trace) => trace.test.kind === 'flaky' && trace.test.flakeRate === rate);
      return `${rate * 100}%: ${ratio(ofRate.filter(flaggedWithin).length, ofRate.length).toFixed(2)}`;
    }).join(', ');
    lines.push(
      `flaky within ${n} runs: precision ${precision.toFixed(3)}, recall (rate ≥ 5%) ${recall.toFixed(3)}; recall by rate ${perRate}`,
    );
    if (n === 50) goalsMet &&= precision >= 0.95 && recall >= 0.9;
  }
  const last = (trace: DetectionTrace) => trace.ours[trace.ours.length - 1];
  const brokenNow = (trace: DetectionTrace) =>
    trace.test.kind === 'broken' && trace.test.brokenFrom <= runs - 2;
  const labelledBroken = traces.filter((trace) => last(trace) === 'broken');
  const brokenPrecision = ratio(labelledBroken.filter(brokenNow).length, labelledBroken.length);
  const brokenRecall = ratio(
    traces.filter((t) => brokenNow(t) && last(t) === 'broken').length,
    traces.filter(brokenNow).length,
  );
  const fixedStillBroken = traces.filter((t) => t.test.kind === 'fixed' && last(t) === 'broken').length;
  const fixedCalledFlaky = traces.filter((t) => t.test.kind === 'fixed' && t.ours.includes('flaky')).length;
  lines.push(
    `broken after ${runs} runs: precision ${brokenPrecision.toFixed(3)}, recall ${brokenRecall.toFixed(3)}; ` +
      `broken→fixed tests still broken: ${fixedStillBroken}, ever called flaky: ${fixedCalledFlaky} (want 0)`,
  );
  goalsMet &&= brokenPrecision >= 0.95 && brokenRecall >= 0.9 && fixedCalledFlaky === 0;

  const flaky = traces.filter((trace) => trace.test.kind === 'flaky');
  const ours = median(flaky.flatMap((t) => (t.oursFlakyAt === null ? [] : [t.oursFlakyAt])));
  const rule = median(flaky.flatMap((t) => (t.sameCommitFlakyAt === null ? [] : [t.sameCommitFlakyAt])));
  const runsRatio = ours !== null && rule !== null ? ours / rule : null;
  lines.push(
    `median runs to detect a flaky test: ours ${fixed(ours, 1)}, same-commit rule ${fixed(rule, 1)} → ${fixed(runsRatio)}× (goal ≤ 1.2×)`,
  );
  for (const rate of FLAKE_RATES) {
    const physical = Math.ceil(Math.log(0.05) / Math.log(1 - rate * (1 - rate)));
    const ofRate = flaky.filter((t) => t.test.flakeRate === rate);
    lines.push(
      `  rate ${rate * 100}%: ours median ${fixed(median(ofRate.flatMap((t) => (t.oursFlakyAt ? [t.oursFlakyAt] : []))), 1)}, ` +
        `same-commit ${fixed(median(ofRate.flatMap((t) => (t.sameCommitFlakyAt ? [t.sameCommitFlakyAt] : []))), 1)}, ` +
        `runs for 95% odds with one retry ≈ ${physical}`,
    );
  }
  goalsMet &&= runsRatio !== null && runsRatio <= 1.2;
  return { lines, goalsMet };
}
