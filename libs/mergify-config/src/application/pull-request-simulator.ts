import type { CodeHost, PullRequestSnapshot } from '@switchyard/code-host';
import { type Clock, notFound } from '@switchyard/kernel';
import { type ConditionNode, teamKey, type TeamMembership } from '../conditions';
import type { MergifyConfiguration } from '../domain/schema/mergify-configuration';
import { simulatePullRequest } from '../domain/simulation/pull-request-simulation';
import { type LocatedDeprecation, validateConfiguration } from '../domain/validate-configuration';
import { ConfigurationRejectedError } from './configuration-rejected.error';

/** The pull-request snapshots the code host keeps (its read model). */
export interface PullRequestSnapshotReader {
  find(repository: string, number: number): Promise<PullRequestSnapshot | null>;
}

export interface PullRequestSimulationAnswer {
  title: string;
  summary: string;
  deprecations: LocatedDeprecation[];
}

/**
 * `POST pulls/{number}/simulator`: the given configuration judged against the pull request as the
 * code host last reported it, now. Team members are asked of the code host for the teams the
 * conditions name; a team it cannot list stays unknown and its conditions say so.
 */
export class PullRequestSimulator {
  constructor(
    private readonly snapshots: PullRequestSnapshotReader,
    private readonly codeHost: CodeHost,
    private readonly clock: Clock,
  ) {}

  async simulate(
    repository: { owner: string; key: string },
    number: bigint,
    text: string,
  ): Promise<PullRequestSimulationAnswer> {
    const now = this.clock.now();
    const validation = validateConfiguration(text, now);
    if (!validation.valid) throw new ConfigurationRejectedError(validation.errors);
    const pullRequest =
      number <= BigInt(Number.MAX_SAFE_INTEGER)
        ? await this.snapshots.find(repository.key, Number(number))
        : null;
    if (!pullRequest) throw notFound(`Pull request #${number} not found`);
    const teams = await this.teamsNamedIn(validation.configuration, repository.owner);
    const simulation = simulatePullRequest(validation.configuration, {
      pullRequest,
      now,
      teams,
    });
    return { ...simulation, deprecations: validation.deprecations };
  }

  private async teamsNamedIn(configuration: MergifyConfiguration, owner: string): Promise<TeamMembership> {
    const wanted = new Map<string, { org: string; slug: string }>();
    const visit = (node: ConditionNode): void => {
      if (node.kind !== 'leaf') return node.children.forEach(visit);
      if (node.value.kind === 'team')
        wanted.set(teamKey(node.value.org, node.value.slug, owner), {
          org: node.value.org ?? owner,
          slug: node.value.slug,
        });
    };
    for (const rule of configuration.pullRequestRules) visit(rule.conditions.tree);
    const teams: Record<string, string[]> = {};
    await Promise.all(
      [...wanted].map(async ([key, team]) => {
        try {
          teams[key] = await this.codeHost.listTeamMembers(team.org, team.slug);
        } catch {
          // Left out: the evaluator reports the team as unknown rather than guessing.
        }
      }),
    );
    return teams;
  }
}
