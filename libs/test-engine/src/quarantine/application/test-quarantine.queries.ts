import { Inject, Injectable } from '@nestjs/common';
import { notFound } from '@switchyard/kernel';
import { SQL_EXECUTOR } from '@switchyard/platform';
import type { SqlExecutor } from '@switchyard/sql';
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
import { QUARANTINE_NOT_FOUND_MESSAGE } from '../domain/test-quarantine';
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
import { READ_TEST_HEALTH, type ReadTestHealth } from './test-health.port';

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
 * Quarantines of a repository, from the quarantine read model (QUARANTINE_READ_MODELS) joined with
 * the test engine's health.
 */
@Injectable()
export class TestQuarantineQueries {
  constructor(
    @Inject(SQL_EXECUTOR) private readonly sql: SqlExecutor,
    @Inject(READ_TEST_HEALTH) private readonly readHealth: ReadTestHealth,
  ) {}

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

  /** The test's identities with their health on the default branch: what a quarantine command records. */
  async healthOf(repository: string, testName: string): Promise<IdentityHealth[]> {
    return (await this.readHealth(this.sql, repository, [testName])).get(testName) ?? [];
  }

  /** The health of the test an active quarantine covers; none when the quarantine is unknown or lifted. */
  async healthOfQuarantined(repository: string, quarantineId: string): Promise<IdentityHealth[]> {
    const current = await findActiveQuarantine(this.sql, repository, quarantineId);
    return current ? this.healthOf(repository, current.testName) : [];
  }

  private async withHealth(repository: string, rows: QuarantineRow[]): Promise<Listed[]> {
    if (rows.length === 0) return [];
    const health = await this.readHealth(this.sql, repository, [...new Set(rows.map((row) => row.testName))]);
    return rows.map((row) => ({ ...row, health: scopeHealth(row, health.get(row.testName) ?? []) }));
  }
}
