import type { IntakeFact, PullRequestScene } from './intake-decider';
import { QUEUE_CHECK_NAME } from './checks-verdict';

/**
 * While the base branch's `.mergify.yml` is invalid, Mergify acts on nothing new: it admits no pull
 * request, runs no command, and answers the pull request's events with a failing check that lists
 * the errors (docs/invalid-configuration.md gives the sources). Pull requests already queued stay
 * where they are; the queue takes in again once a valid file lands.
 */
export const INVALID_CONFIGURATION_TITLE = 'The current Mergify configuration is invalid';

/** A failing check run on the pull request's head: what Mergify shows on a pull request it will not act on. */
export interface ConfigurationCheck {
  name: string;
  headSha: string;
  title: string;
  /** The verdict: the file and each error with its line and column. */
  summary: string;
}

/** The pull request events Mergify answers with the verdict (opened, pushed to), and the ones that ask to queue. */
const ANSWERED_ACTIONS: readonly string[] = [
  'opened',
  'reopened',
  'synchronize',
  'ready_for_review',
  'labeled',
];

/** Whether the configuration holds the intake back: nothing new is taken in, no command runs. */
export const configurationHoldsIntake = (scene: PullRequestScene, fact: IntakeFact): boolean =>
  scene.configuration.problem !== null &&
  (fact.kind === 'command' || scene.queue.pullRequests[scene.snapshot.number] === undefined);

/**
 * The check run that tells an open pull request, not queued, why nothing happens to it: once per
 * event that could have queued it (a command, or one of the answered actions), none otherwise.
 */
export function invalidConfigurationCheck(
  fact: IntakeFact,
  scene: PullRequestScene,
): ConfigurationCheck | null {
  const { problem } = scene.configuration;
  const { snapshot } = scene;
  if (problem === null || snapshot.state !== 'open') return null;
  if (scene.queue.pullRequests[snapshot.number] !== undefined) return null;
  if (fact.kind === 'pull_request_changed' && !ANSWERED_ACTIONS.includes(fact.action)) return null;
  return {
    name: QUEUE_CHECK_NAME,
    headSha: snapshot.head.sha,
    title: INVALID_CONFIGURATION_TITLE,
    summary: problem,
  };
}
