/**
 * The sandbox CI model: a pure function of a tree's contents. The sandbox forge runs it for every
 * pull request head, and the queue simulator runs it on a virtual clock, so both agree on which
 * trees pass, which fail, which flake and how long each takes.
 *
 * Markers (one per line, optionally behind a comment leader such as `#`, `//`, `--`, `;`, `*`):
 * - `sandbox-ci: fail`          the tree fails;
 * - `sandbox-ci: flaky 0.3`     the tree fails 30 % of runs, drawn from the seed and run number;
 * - `sandbox-ci: seconds 20`    the run takes 20 seconds instead of the default;
 * - `sandbox-ci: provides T` and `sandbox-ci: conflicts-with T`: a semantic conflict. Each passes
 *   alone; a tree that holds both (in any files) fails. Trees merge file by file, so two changes
 *   that put these lines in files of their own pass apart and fail together, as two changes that
 *   each keep the tests green but break them once combined do. A token is letters, digits and
 *   `._:/-`.
 */

export type SandboxCiConclusion = 'success' | 'failure';

export interface SandboxCiMarkers {
  /** A `sandbox-ci: fail` line was found. */
  readonly fails: boolean;
  /** Each `sandbox-ci: flaky p` probability found, in [0, 1]. */
  readonly flakyRates: readonly number[];
  /** Each `sandbox-ci: seconds n` duration found. */
  readonly durations: readonly number[];
  /** Tokens of `sandbox-ci: provides T` lines, without repeats. */
  readonly provides: readonly string[];
  /** Tokens of `sandbox-ci: conflicts-with T` lines, without repeats. */
  readonly conflictsWith: readonly string[];
}

export interface SandboxCiRunInput {
  readonly markers: SandboxCiMarkers;
  /** Anything stable that tells runs apart across trees, e.g. the head commit sha. */
  readonly seed: string | number;
  /** The attempt number on that seed (1 for the first run, 2 for a retry...). */
  readonly run: number;
  /** Duration when the tree sets none (`SWITCHYARD_SANDBOX_CI_SECONDS`, 5 by default). */
  readonly defaultSeconds: number;
}

export interface SandboxCiOutcome {
  readonly conclusion: SandboxCiConclusion;
  readonly seconds: number;
}

/** The tokens the tree both provides and conflicts with: each one fails it. */
export const semanticConflictsOf = (markers: SandboxCiMarkers): string[] =>
  markers.conflictsWith.filter((token) => markers.provides.includes(token));

export const DEFAULT_SANDBOX_CI_SECONDS = 5;

export const NO_CI_MARKERS: SandboxCiMarkers = {
  fails: false,
  flakyRates: [],
  durations: [],
  provides: [],
  conflictsWith: [],
};

const MARKER_LINE =
  /^\s*(?:#|\/\/|--|;|\*|<!--)?\s*sandbox-ci:\s*(fail|flaky\s+(\d+(?:\.\d+)?|\.\d+)|seconds\s+(\d+(?:\.\d+)?)|(provides|conflicts-with)\s+([\w.:/-]+))\s*(?:-->)?\s*$/;

const withToken = (tokens: string[], token: string): void => {
  if (!tokens.includes(token)) tokens.push(token);
};

/** The markers found in the given file contents (one string per file). */
export function findCiMarkers(fileContents: Iterable<string>): SandboxCiMarkers {
  let fails = false;
  const flakyRates: number[] = [];
  const durations: number[] = [];
  const provides: string[] = [];
  const conflictsWith: string[] = [];
  for (const content of fileContents) {
    if (!content.includes('sandbox-ci:')) continue;
    for (const line of content.split(/\r?\n/)) {
      const match = MARKER_LINE.exec(line);
      if (!match) continue;
      if (match[1] === 'fail') fails = true;
      else if (match[2] !== undefined) flakyRates.push(Math.min(1, Number(match[2])));
      else if (match[3] !== undefined) durations.push(Number(match[3]));
      else if (match[4] === 'provides') withToken(provides, match[5]!);
      else withToken(conflictsWith, match[5]!);
    }
  }
  return { fails, flakyRates, durations, provides, conflictsWith };
}

/** Merges the markers of several trees or files, as a batch holding all of their changes would. */
export function combineCiMarkers(markers: Iterable<SandboxCiMarkers>): SandboxCiMarkers {
  let fails = false;
  const flakyRates: number[] = [];
  const durations: number[] = [];
  const provides: string[] = [];
  const conflictsWith: string[] = [];
  for (const each of markers) {
    fails ||= each.fails;
    flakyRates.push(...each.flakyRates);
    durations.push(...each.durations);
    for (const token of each.provides) withToken(provides, token);
    for (const token of each.conflictsWith) withToken(conflictsWith, token);
  }
  return { fails, flakyRates, durations, provides, conflictsWith };
}

/**
 * The outcome of one run. A `fail` marker or a semantic conflict fails it. Several flaky markers flake independently, so the run fails with
 * probability 1 − Π(1 − pᵢ); the slowest `seconds` marker sets the duration, as the slowest job of
 * a real pipeline does.
 */
export function runSandboxCi(input: SandboxCiRunInput): SandboxCiOutcome {
  const { markers } = input;
  const seconds = markers.durations.length > 0 ? Math.max(...markers.durations) : input.defaultSeconds;
  if (markers.fails || semanticConflictsOf(markers).length > 0) return { conclusion: 'failure', seconds };
  const passProbability = markers.flakyRates.reduce((pass, rate) => pass * (1 - rate), 1);
  const flakes = passProbability < 1 && seededUniform(input.seed, input.run) >= passProbability;
  return { conclusion: flakes ? 'failure' : 'success', seconds };
}

/** Convenience: markers and outcome straight from the file contents of a tree. */
export function runSandboxCiOnTree(
  fileContents: Iterable<string>,
  run: Omit<SandboxCiRunInput, 'markers'>,
): SandboxCiOutcome {
  return runSandboxCi({ ...run, markers: findCiMarkers(fileContents) });
}

/** A uniform draw in [0, 1) fixed by (seed, run): FNV-1a over both, then a splitmix32 finaliser. */
export function seededUniform(seed: string | number, run: number): number {
  const text = `${String(seed)}#${run}`;
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  hash = Math.imul(hash ^ (hash >>> 16), 0x21f0aaad);
  hash = Math.imul(hash ^ (hash >>> 15), 0x735a2d97);
  hash ^= hash >>> 15;
  return (hash >>> 0) / 0x1_0000_0000;
}
