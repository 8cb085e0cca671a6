import examples from '@octokit/webhooks-examples/api.github.com/index.json';
import type { StormDelivery } from './storm-sender';

/* eslint-disable @typescript-eslint/no-explicit-any -- GitHub's payloads, changed field by field */
type Payload = Record<string, any>;

/** An open pull request of the sandbox forge as its REST API answered it when it was opened. */
export interface StormPullRequest {
  number: number;
  /** The forge's GitHub-shaped pull request (`POST /pulls`'s answer). */
  pull: Payload;
}

const example = (event: string, action?: string): Payload =>
  structuredClone(
    (examples as { name: string; examples: Payload[] }[])
      .find((group) => group.name === event)!
      .examples.find((payload) => action === undefined || payload.action === action)!,
  );

/**
 * The storm's mix, one in ten each: label changes (a label added, then removed, in turn on each
 * pull request), check runs and check suites of another CI completing on a pull request's head,
 * and pushes of a pull request's branch (the head it has). Every one is true of the forge's pull
 * request as far as the queue reads it (its head, its base, that it is open), so none can move the
 * queue, but each is a fact the intake and the read models must read.
 */
const MIX = [
  'labeled',
  'check_run',
  'push',
  'check_suite',
  'unlabeled',
  'check_run',
  'labeled',
  'push',
  'check_run',
  'unlabeled',
] as const;

export const STORM_LABEL = 'storm/area';

/**
 * `count` signed-to-be deliveries about `pulls` of `repository` (owner/name as the forge spells
 * it), each with its own delivery id, round-robin over the pull requests. `updatedFrom` is the
 * `updated_at` of the first label change (epoch ms); each later one is a millisecond later, so
 * the read models see them in order.
 */
export function stormDeliveries(options: {
  repository: string;
  pulls: StormPullRequest[];
  count: number;
  idPrefix: string;
  updatedFrom: number;
}): StormDelivery[] {
  const [owner, name] = options.repository.split('/') as [string, string];
  const labelled = new Set<number>();
  const withRepository = (payload: Payload): Payload => {
    payload.repository.full_name = options.repository;
    payload.repository.name = name;
    payload.repository.owner.login = owner;
    payload.repository.default_branch = 'main';
    return payload;
  };
  const deliveries: StormDelivery[] = [];
  for (let i = 0; i < options.count; i++) {
    const { number, pull } = options.pulls[i % options.pulls.length]!;
    const kind = MIX[i % MIX.length]!;
    const headSha = pull.head.sha as string;
    let event: string;
    let payload: Payload;
    switch (kind) {
      case 'labeled':
      case 'unlabeled': {
        // A pull request's label flips: added when it has none, removed when it has it.
        const adding = !labelled.has(number);
        if (adding) labelled.add(number);
        else labelled.delete(number);
        event = 'pull_request';
        payload = withRepository(example('pull_request', 'labeled'));
        const label = {
          id: 7001,
          node_id: 'LA_storm',
          url: '',
          name: STORM_LABEL,
          color: 'ededed',
          default: false,
        };
        payload.action = adding ? 'labeled' : 'unlabeled';
        payload.number = number;
        payload.label = label;
        payload.pull_request = {
          ...structuredClone(pull),
          labels: adding ? [label] : [],
          updated_at: new Date(options.updatedFrom + i).toISOString(),
        };
        break;
      }
      case 'check_run':
        event = 'check_run';
        payload = withRepository(example('check_run', 'completed'));
        Object.assign(payload.check_run, {
          id: 900_000_000 + i,
          name: 'lint',
          head_sha: headSha,
          status: 'completed',
          conclusion: 'success',
          pull_requests: [],
        });
        payload.check_run.check_suite.head_sha = headSha;
        payload.check_run.check_suite.pull_requests = [];
        break;
      case 'check_suite':
        event = 'check_suite';
        payload = withRepository(example('check_suite', 'completed'));
        Object.assign(payload.check_suite, {
          id: 800_000_000 + i,
          head_sha: headSha,
          head_branch: pull.head.ref,
          status: 'completed',
          conclusion: 'success',
          pull_requests: [],
        });
        break;
      case 'push':
        event = 'push';
        payload = withRepository(example('push'));
        Object.assign(payload, {
          ref: `refs/heads/${pull.head.ref as string}`,
          before: pull.base.sha,
          after: headSha,
          created: false,
          deleted: false,
          forced: false,
        });
        break;
    }
    deliveries.push({ id: `${options.idPrefix}-${i}`, event, body: JSON.stringify(payload) });
  }
  return deliveries;
}
