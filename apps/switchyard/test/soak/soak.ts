import { uniqueRepository } from '../unique-repository';
import { runScenario, type SoakTarget } from './run-scenario';
import { describeScenario, generateScenario, type ScenarioOptions } from './scenario';

export interface SeedOutcome {
  readonly seed: string;
  readonly target: string;
  readonly configuration: string;
  readonly pulls: number;
  readonly stays: number;
  readonly merged: number;
  readonly violations: readonly string[];
  readonly seconds: number;
}

/** The one-line command that replays a seed exactly (same configuration, same lives, same steps). */
export const replayCommand = (seed: string, target: string, scenarios: 'full' | 'short') =>
  `SOAK_SEED=${seed} SOAK_TARGET=${target}${scenarios === 'short' ? ' SOAK_SCENARIOS=short' : ''} npm run soak`;

/** Runs one seed on a target and says how it went (a failing seed with its scenario and replay line). */
export async function soakSeed(
  target: SoakTarget,
  seed: string,
  scenarioOptions: ScenarioOptions,
  scenarios: 'full' | 'short',
  log: (line: string) => void,
): Promise<SeedOutcome> {
  const scenario = generateScenario(seed, scenarioOptions);
  const result = await runScenario(target, scenario, {
    repository: uniqueRepository(`soak-${seed.replace(/[^a-z0-9-]/gi, '')}`),
    slackSeconds: Number(process.env.SOAK_ROUND_SLACK_SECONDS ?? 5),
    settleCapMs: Number(process.env.SOAK_SETTLE_CAP_SECONDS ?? 900) * 1000,
    log,
  });
  const outcome: SeedOutcome = {
    seed,
    target: target.name,
    configuration: scenario.configurationText,
    pulls: result.pulls,
    stays: result.stays,
    merged: result.merged,
    violations: result.violations,
    seconds: Math.round(result.durationMs / 1000),
  };
  const summary = `${result.pulls} pull requests, ${result.stays} stays, ${result.merged} merged, ${outcome.seconds} s`;
  if (result.violations.length === 0) log(`seed ${seed} (${target.name}): clean — ${summary}`);
  else
    log(
      [
        `seed ${seed} (${target.name}): ${result.violations.length} violation(s) — ${summary}`,
        ...result.violations.map((v) => `  ✗ ${v}`),
        describeScenario(scenario),
        `replay: ${replayCommand(seed, target.name, scenarios)}`,
      ].join('\n'),
    );
  return outcome;
}
