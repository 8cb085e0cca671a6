import {
  generateConfiguration,
  validConfigurationText,
  type ConfigurationPlan,
} from './configuration-generator';
import { SeededRandom } from './seeded-random';

/** What a pull request's change does to the sandbox CI (markers in its file). */
export type PullNature = 'good' | 'slow' | 'failing' | 'flaky' | 'stuck' | 'semantic' | 'textual';

/** How the pull request asks to be queued. */
export type Entry = 'ready-label' | 'hotfix-label' | 'command';

export interface PullPlan {
  readonly name: string;
  readonly nature: PullNature;
  readonly entry: Entry;
  /** The file the change writes, under its scope's folder. */
  readonly path: string;
  readonly lines: readonly string[];
  /** Opened with the `wip` label, which the ready rule excludes, removed by an `unwip` step. */
  readonly wip: boolean;
  /** Pull requests of which at most one can merge (a semantic or a textual conflict). */
  readonly conflictGroup: string | null;
}

export type Step =
  | { readonly kind: 'open'; readonly pull: number }
  | { readonly kind: 'enqueue'; readonly pull: number }
  | { readonly kind: 'unwip'; readonly pull: number }
  | { readonly kind: 'withdraw'; readonly pull: number }
  | { readonly kind: 'requeue'; readonly pull: number }
  | { readonly kind: 'push'; readonly pull: number; readonly lines: readonly string[] }
  | { readonly kind: 'pause' }
  | { readonly kind: 'unpause' }
  | { readonly kind: 'freeze'; readonly startsInSeconds: number; readonly seconds: number }
  | { readonly kind: 'wait'; readonly ms: number };

export interface ScenarioOptions {
  /** Pause/unpause and scheduled freezes. */
  readonly controls: boolean;
  /** Flaky changes (they may make the base branch flaky once merged). */
  readonly flaky: boolean;
  /** CI that never answers, ended by a 60 s `checks_timeout`. */
  readonly stuck: boolean;
  /** `merge_method: fast-forward` in serial queues. */
  readonly fastForward: boolean;
  /** `@mergify requeue` on a failing pull request, which may still be queued when it arrives. */
  readonly requeue: boolean;
  readonly pulls: { readonly min: number; readonly max: number };
}

export const FULL_SCENARIOS: ScenarioOptions = {
  controls: true,
  flaky: true,
  stuck: true,
  fastForward: true,
  requeue: true,
  pulls: { min: 4, max: 12 },
};

/** The short variant `npm test` runs: small scenarios, and no 60 s timeouts. */
export const SHORT_SCENARIOS: ScenarioOptions = {
  controls: true,
  flaky: true,
  stuck: false,
  fastForward: true,
  requeue: true,
  pulls: { min: 3, max: 6 },
};

export interface Scenario {
  readonly seed: string;
  readonly configuration: ConfigurationPlan;
  readonly configurationText: string;
  /** Files on the base branch before any pull request (the textual conflicts' shared files). */
  readonly baseFiles: Readonly<Record<string, string>>;
  readonly pulls: readonly PullPlan[];
  readonly steps: readonly Step[];
  /** The step before which a split deployment kills an engine with SIGKILL. */
  readonly killEngineBeforeStep: number;
}

/** How a pull request must end, from its life as the scenario wrote it. */
export type Expectation =
  /** Still asked for at the end, and its change passes: it must merge. */
  | 'merged'
  /** Still asked for at the end, and its change fails (or its CI never answers): it must not merge. */
  | 'rejected'
  /** Withdrawn, or flaky: it may end either way, but it must leave the queue. */
  | 'either'
  /** A member of a conflict group: exactly one of the group merges. */
  | 'one-of-group';

const SLOW_SECONDS = 3;
const STUCK_SECONDS = 3_600;
const FLAKY_RATE = 0.3;

export const ciMarker = {
  fail: 'sandbox-ci: fail',
  slow: `sandbox-ci: seconds ${SLOW_SECONDS}`,
  stuck: `sandbox-ci: seconds ${STUCK_SECONDS}`,
  flaky: `sandbox-ci: flaky ${FLAKY_RATE}`,
} as const;

/** Draws the whole scenario of one seed: a configuration and the lives of its pull requests. */
export function generateScenario(seed: string, options: ScenarioOptions = FULL_SCENARIOS): Scenario {
  const random = new SeededRandom(seed);
  const configuration = generateConfiguration(random, {
    stuckChecks: options.stuck,
    fastForward: options.fastForward,
  });
  const count = random.int(options.pulls.min, options.pulls.max);
  const pulls: PullPlan[] = [];
  const baseFiles: Record<string, string> = {};
  const lives: Step[][] = [];
  const scopeOf = () => (configuration.scopes ? random.pick(['web', 'api'] as const) : 'web');
  const entries: Array<readonly [Entry, number]> = [
    ['ready-label', 5],
    ['command', 2],
    ...(configuration.hotfix ? [['hotfix-label', 1] as const] : []),
  ];
  const entryOf = (): Entry => random.weighted(entries);
  const wipOf = (entry: Entry) =>
    entry === 'ready-label' && configuration.readyConditions.includes('-label=wip') && random.chance(0.3);

  while (pulls.length < count) {
    const natures: Array<[PullNature, number]> = [
      ['good', 6],
      ['slow', 1],
      ['failing', 2],
    ];
    if (options.flaky) natures.push(['flaky', 1]);
    if (configuration.checksTimeoutSeconds !== null) natures.push(['stuck', 1]);
    if (pulls.length + 2 <= count) natures.push(['semantic', 1], ['textual', 1]);
    const nature = random.weighted(natures);
    const index = pulls.length;
    if (nature === 'semantic' || nature === 'textual') {
      // A pair in one scope: scopes let parallel lanes merge unrelated changes without checking them together.
      const scope = scopeOf();
      const group = `g${index}`;
      for (const member of [0, 1]) {
        const name = `p${index + member + 1}`;
        const entry = entryOf();
        const wip = wipOf(entry);
        const shared = `${scope}/shared-${group}.txt`;
        if (nature === 'textual') baseFiles[shared] = `shared ${group}\n`;
        pulls.push({
          name,
          nature,
          entry,
          wip,
          conflictGroup: group,
          path: nature === 'textual' ? shared : `${scope}/${name}.txt`,
          lines:
            nature === 'textual'
              ? [`shared ${group}, as ${name} wants it`]
              : [
                  `change ${name}`,
                  `sandbox-ci: ${member === 0 ? 'provides' : 'conflicts-with'} token-${group}`,
                ],
        });
        lives.push(lifeOfPair(pulls.length - 1, wip));
      }
      continue;
    }
    const name = `p${index + 1}`;
    const entry = entryOf();
    const wip = wipOf(entry);
    const marker = {
      good: null,
      slow: ciMarker.slow,
      failing: ciMarker.fail,
      flaky: ciMarker.flaky,
      stuck: ciMarker.stuck,
    }[nature];
    const lines = [`change ${name}`, ...(marker ? [marker] : [])];
    pulls.push({ name, nature, entry, wip, conflictGroup: null, path: `${scopeOf()}/${name}.txt`, lines });
    lives.push(lifeOf(random, index, nature, entry, wip, name, options.requeue));
  }

  const steps = interleave(random, lives);
  if (options.controls) addControls(random, steps);
  return {
    seed,
    configuration,
    configurationText: validConfigurationText(configuration),
    baseFiles,
    pulls,
    steps,
    killEngineBeforeStep: random.int(1, Math.max(1, steps.length - 1)),
  };
}

function lifeOfPair(pull: number, wip: boolean): Step[] {
  return [
    { kind: 'open', pull },
    { kind: 'enqueue', pull },
    ...(wip ? [{ kind: 'unwip', pull } as const] : []),
  ];
}

function lifeOf(
  random: SeededRandom,
  pull: number,
  nature: PullNature,
  entry: Entry,
  wip: boolean,
  name: string,
  requeue: boolean,
): Step[] {
  const life: Step[] = [
    { kind: 'open', pull },
    { kind: 'enqueue', pull },
  ];
  if (wip) life.push({ kind: 'unwip', pull });
  // A command-queued pull request leaves at a new head and stays out until asked again.
  const push = (lines: string[]) => {
    life.push({ kind: 'push', pull, lines });
    if (entry === 'command') life.push({ kind: 'enqueue', pull });
  };
  if (nature === 'failing') {
    // Drawn either way, so the short variant's scenarios differ only by the step left out.
    if (random.chance(0.4) && requeue) life.push({ kind: 'requeue', pull });
    if (random.chance(0.5)) push([`change ${name}, fixed`]);
    return life;
  }
  if (nature === 'good' || nature === 'slow') {
    if (random.chance(0.15)) push([`change ${name}, amended`, ...(nature === 'slow' ? [ciMarker.slow] : [])]);
    if (random.chance(0.15)) {
      life.push({ kind: 'withdraw', pull });
      if (random.chance(0.5)) life.push({ kind: 'enqueue', pull });
    }
  }
  return life;
}

/** The lives merged into one timeline, in a drawn order, with drawn pauses between steps. */
function interleave(random: SeededRandom, lives: Step[][]): Step[] {
  const cursors = lives.map(() => 0);
  const steps: Step[] = [];
  for (;;) {
    const open = cursors
      .map((cursor, pull) => (cursor < lives[pull]!.length ? pull : -1))
      .filter((p) => p >= 0);
    if (open.length === 0) return steps;
    const pull = random.pick(open);
    steps.push(lives[pull]![cursors[pull]!]!);
    cursors[pull]! += 1;
    const ms = random.weighted([
      [0, 3],
      [random.int(100, 800), 4],
      [random.int(1_000, 3_000), 2],
    ] as const);
    if (ms > 0) steps.push({ kind: 'wait', ms });
  }
}

function addControls(random: SeededRandom, steps: Step[]): void {
  if (random.chance(0.4)) {
    const at = random.int(0, steps.length);
    const pausedMs = random.int(1_000, 6_000);
    steps.splice(at, 0, { kind: 'pause' }, { kind: 'wait', ms: pausedMs }, { kind: 'unpause' });
  }
  if (random.chance(0.4)) {
    const at = random.int(0, steps.length);
    steps.splice(at, 0, { kind: 'freeze', startsInSeconds: random.int(1, 3), seconds: random.int(2, 6) });
  }
}

/** How each pull request must end, by replaying its steps on what they mean to the queue. */
export function expectationsOf(scenario: Scenario): Expectation[] {
  const asked = scenario.pulls.map(() => false);
  const lines = scenario.pulls.map((pull) => [...pull.lines]);
  for (const step of scenario.steps) {
    if (!('pull' in step)) continue;
    const entry = scenario.pulls[step.pull]!.entry;
    if (step.kind === 'enqueue' || step.kind === 'requeue') asked[step.pull] = true;
    if (step.kind === 'withdraw') asked[step.pull] = false;
    if (step.kind === 'push') {
      lines[step.pull] = [...step.lines];
      if (entry === 'command') asked[step.pull] = false;
    }
  }
  return scenario.pulls.map((pull, index) => {
    if (!asked[index]) return 'either';
    if (pull.conflictGroup !== null) return 'one-of-group';
    const final = lines[index]!;
    if (final.includes(ciMarker.fail) || final.includes(ciMarker.stuck)) return 'rejected';
    if (final.includes(ciMarker.flaky)) return 'either';
    return 'merged';
  });
}

/** The longest a run of CI lasts in this scenario, in seconds (a stuck run ends at its timeout). */
export function longestRunSeconds(
  scenario: Scenario,
  defaultCiSeconds: number,
  timerSeconds: number,
): number {
  const all = [
    ...scenario.pulls.map((pull) => pull.lines),
    ...scenario.steps.flatMap((s) => (s.kind === 'push' ? [s.lines] : [])),
  ];
  let longest = defaultCiSeconds;
  for (const lines of all) {
    if (lines.includes(ciMarker.slow)) longest = Math.max(longest, SLOW_SECONDS);
    if (lines.includes(ciMarker.stuck) && scenario.configuration.checksTimeoutSeconds !== null)
      longest = Math.max(longest, scenario.configuration.checksTimeoutSeconds + timerSeconds);
  }
  return longest;
}

/** One line per step, for a failure report. */
export function describeScenario(scenario: Scenario): string {
  const pulls = scenario.pulls.map(
    (pull, index) =>
      `  #${index}: ${pull.name} ${pull.nature} via ${pull.entry}${pull.wip ? ' (wip)' : ''} ${pull.path}`,
  );
  const steps = scenario.steps
    .filter((step) => step.kind !== 'wait')
    .map((step) => `  ${step.kind}${'pull' in step ? ` ${scenario.pulls[step.pull]!.name}` : ''}`);
  return [
    `configuration:\n${scenario.configurationText}`,
    'pull requests:',
    ...pulls,
    'steps:',
    ...steps,
  ].join('\n');
}
