import { Inject, Injectable } from '@nestjs/common';
import { type Clock, notFound } from '@switchyard/kernel';
import { CLOCK, SQL_EXECUTOR } from '@switchyard/platform';
import type { SqlExecutor } from '@switchyard/sql';
import { dayWindow } from '../queries/day-window';
import { readHealthTransitions } from '../queries/health-transitions';
import { readRepositoryTestStat, type RepositoryTestStat } from '../queries/repository-test-stats';
import { type SearchFilters, searchTests, type SearchSort } from '../queries/search-tests';
import { readTestDetails, type TestDetailsView } from '../queries/test-details';
import { readTestExecutions, type ExecutionSort } from '../queries/test-executions';
import { readLatestFailureEvents, readTestFailures } from '../queries/test-failures';
import type { TestScope } from '../queries/test-scope';
import { readTestStat, type TestStat } from '../queries/test-stats';
import { DefaultBranches } from './default-branch';

interface Repository {
  owner: string;
  repository: string;
  key: string;
}

/** The read side of the test engine: windows come from the clock, everything else from SQL. */
@Injectable()
export class TestInsightsService {
  constructor(
    @Inject(SQL_EXECUTOR) private readonly sql: SqlExecutor,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly defaultBranches: DefaultBranches,
  ) {}

  async search(
    repository: Repository,
    filters: SearchFilters,
    page: { sort: SearchSort; direction: 'asc' | 'desc'; offset: number; perPage: number },
  ) {
    const defaultBranch = await this.defaultBranches.of(repository);
    return searchTests(this.sql, { repository: repository.key, defaultBranch, ...filters, ...page });
  }

  async details(scope: TestScope): Promise<TestDetailsView> {
    const details = await readTestDetails(this.sql, scope);
    if (!details) throw notFound('Test not found');
    return details;
  }

  async stat(scope: TestScope, stat: TestStat, days: number) {
    await this.details(scope);
    return readTestStat(this.sql, scope, stat, dayWindow(this.clock.now(), days));
  }

  async transitions(scope: TestScope, days: number) {
    await this.details(scope);
    return readHealthTransitions(this.sql, scope, dayWindow(this.clock.now(), days));
  }

  async failures(scope: TestScope) {
    await this.details(scope);
    return readTestFailures(this.sql, scope);
  }

  async failure(scope: TestScope, failureId: string) {
    const [failure] = await readTestFailures(this.sql, scope, failureId);
    if (!failure) throw notFound('Failure not found');
    return { failure, events: await readLatestFailureEvents(this.sql, scope, failureId) };
  }

  async executions(
    scope: TestScope,
    page: { sort: ExecutionSort; direction: 'asc' | 'desc'; offset: number; perPage: number; days: number },
  ) {
    await this.details(scope);
    return readTestExecutions(this.sql, {
      repository: scope.repository,
      testId: scope.testId,
      window: dayWindow(this.clock.now(), page.days),
      ...page,
    });
  }

  async repositoryStat(repository: Repository, stat: RepositoryTestStat, filters: SearchFilters) {
    const defaultBranch = await this.defaultBranches.of(repository);
    return readRepositoryTestStat(this.sql, {
      repository: repository.key,
      defaultBranch,
      filters,
      stat,
      window: dayWindow(this.clock.now(), REPOSITORY_STATS_DAYS),
    });
  }
}

/** tests/stats has no window parameter: its failed-executions series covers the last 30 UTC days. */
export const REPOSITORY_STATS_DAYS = 30;
