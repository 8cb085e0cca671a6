import { Inject, Injectable } from '@nestjs/common';
import type { CommandService } from '@switchyard/event-store/application';
import { type Actor, type Clock, newId, notFound } from '@switchyard/kernel';
import { CLOCK, COMMAND_SERVICE, READ_MODEL_FRESHNESS, SQL_EXECUTOR } from '@switchyard/platform';
import { readYourWrite, type ReadModelFreshness } from '@switchyard/projection';
import type { SqlExecutor } from '@switchyard/sql';
import { testIdOf } from '../../domain/identity/test-identity';
import { worstHealth } from '../domain/health-status';
import {
  filterByHealth,
  type HealthFilters,
  type Page,
  type PageRequest,
  pageOf,
  type QuarantineSort,
  type SortDirection,
  sortQuarantines,
} from '../domain/quarantine-listing';
import { type IdentityHealth, scopeHealth } from '../domain/quarantine-scope';
import type { TestQuarantineCommand } from '../domain/test-quarantine.commands';
import { quarantineCommandDecider } from './test-quarantine.snapshots';
import { QUARANTINE_NOT_FOUND_MESSAGE } from '../domain/test-quarantine.errors';
import { testQuarantineStreamId } from '../domain/test-quarantine.stream';
import {
  type AutoQuarantineView,
  autoQuarantineSettings,
  findActiveQuarantine,
  listActiveQuarantines,
  quarantinedTestNames,
  type QuarantineRow,
  type QuarantineRowFilters,
} from '../projection/test-quarantine.read-model';
import { type QuarantinedTestJson, quarantinedTestJson } from './quarantine-json';
import { QUARANTINE_READ_MODELS } from './read-models';
import { READ_TEST_HEALTH, type ReadTestHealth } from './test-health.port';

export interface NewQuarantine {
  testName: string;
  reason: string;
  branch: string | null;
  unquarantineWhenHealthy: boolean;
}

export interface QuarantineListRequest {
  filters: QuarantineRowFilters;
  health: HealthFilters;
  sort: QuarantineSort;
  direction: SortDirection;
  /** Absent: the whole list in one answer (what the CLI expects). */
  page?: PageRequest;
}

export interface QuarantineList {
  quarantines: QuarantinedTestJson[];
  total: number;
  page: Page<unknown> | null;
}

type Listed = QuarantineRow & { health: IdentityHealth['health'] | null };

/**
 * Quarantines of a repository: commands through the repository's quarantine stream, reads from
 * the quarantine read model joined with the test engine's health. Writes answer once the read
 * model includes them.
 */
@Injectable()
export class TestQuarantineService {
  constructor(
    @Inject(COMMAND_SERVICE) private readonly commands: CommandService,
    @Inject(READ_MODEL_FRESHNESS) private readonly freshness: ReadModelFreshness,
    @Inject(SQL_EXECUTOR) private readonly sql: SqlExecutor,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(READ_TEST_HEALTH) private readonly readHealth: ReadTestHealth,
  ) {}

  async quarantine(repository: string, quarantine: NewQuarantine, actor: Actor): Promise<string> {
    const quarantineId = newId();
    const identities = await this.healthOf(repository, quarantine.testName);
    await this.run({
      type: 'QuarantineTest',
      repository,
      quarantineId,
      testName: quarantine.testName,
      testId: testIdOf(repository, quarantine.testName),
      reason: quarantine.reason,
      branch: quarantine.branch,
      unquarantineWhenHealthy: quarantine.unquarantineWhenHealthy,
      health: worstHealth(identities.map((identity) => identity.health)),
      actor,
      at: this.clock.now(),
    });
    return quarantineId;
  }

  async dequarantine(repository: string, quarantineId: string, actor: Actor): Promise<void> {
    const current = await findActiveQuarantine(this.sql, repository, quarantineId);
    await this.run({
      type: 'DequarantineTest',
      repository,
      quarantineId,
      identities: current ? await this.healthOf(repository, current.testName) : [],
      actor,
      at: this.clock.now(),
    });
  }

  async find(repository: string, quarantineId: string): Promise<QuarantinedTestJson> {
    const row = await findActiveQuarantine(this.sql, repository, quarantineId);
    if (!row) throw notFound(QUARANTINE_NOT_FOUND_MESSAGE);
    const [listed] = await this.withHealth(repository, [row]);
    return quarantinedTestJson(row, listed!.health);
  }

  async list(repository: string, request: QuarantineListRequest): Promise<QuarantineList> {
    const rows = await listActiveQuarantines(this.sql, repository, request.filters);
    const kept = filterByHealth(await this.withHealth(repository, rows), request.health);
    const sorted = sortQuarantines(kept, request.sort, request.direction);
    const page = request.page ? pageOf(sorted, request.sort, request.direction, request.page) : null;
    return {
      quarantines: (page?.items ?? sorted).map((item) => quarantinedTestJson(item, item.health)),
      total: sorted.length,
      page,
    };
  }

  /**
   * The CLI's split of failing test names (client-contract §1.7): a name is quarantined when an
   * active quarantine of that exact name applies to the branch or to every branch. The request
   * names no pipeline or job, so a quarantine scoped to one counts as well.
   */
  async check(
    repository: string,
    testNames: readonly string[],
    branch: string | null,
  ): Promise<{ quarantined: string[]; notQuarantined: string[] }> {
    const quarantined = await quarantinedTestNames(this.sql, repository, [...new Set(testNames)], branch);
    return {
      quarantined: testNames.filter((name) => quarantined.has(name)),
      notQuarantined: testNames.filter((name) => !quarantined.has(name)),
    };
  }

  autoQuarantine(repository: string): Promise<AutoQuarantineView> {
    return autoQuarantineSettings(this.sql, repository);
  }

  async configureAutoQuarantine(
    repository: string,
    settings: AutoQuarantineView,
    actor: Actor,
  ): Promise<AutoQuarantineView> {
    await this.run({ type: 'ConfigureAutoQuarantine', repository, ...settings, actor, at: this.clock.now() });
    return this.autoQuarantine(repository);
  }

  private async healthOf(repository: string, testName: string): Promise<IdentityHealth[]> {
    return (await this.readHealth(this.sql, repository, [testName])).get(testName) ?? [];
  }

  private async withHealth(repository: string, rows: QuarantineRow[]): Promise<Listed[]> {
    if (rows.length === 0) return [];
    const health = await this.readHealth(this.sql, repository, [...new Set(rows.map((row) => row.testName))]);
    return rows.map((row) => ({ ...row, health: scopeHealth(row, health.get(row.testName) ?? []) }));
  }

  private async run(command: TestQuarantineCommand): Promise<void> {
    await readYourWrite(this.freshness, QUARANTINE_READ_MODELS, () =>
      this.commands.handle(testQuarantineStreamId(command.repository), quarantineCommandDecider, command),
    );
  }
}
