import { Controller, Get, Req, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Auth } from '@switchyard/auth';
import {
  Param,
  Query,
  type RepositoryRef,
  RepositoryRefParam,
  setLinkHeader,
  UuidPipe,
} from '@switchyard/http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { TestInsightsService } from '../application/test-insights.service';
import { windowDays } from '../queries/day-window';
import { REPOSITORY_TEST_STATS, type RepositoryTestStat } from '../queries/repository-test-stats';
import type { SearchFilters } from '../queries/search-tests';
import type { TestScope } from '../queries/test-scope';
import { TEST_STATS, type TestStat } from '../queries/test-stats';
import {
  HealthTransitionParams,
  SearchTestsParams,
  TestExecutionsParams,
  type TestFilterParams,
  TestScopeParams,
  TestStatParams,
} from './dto/test-query.params';
import { offsetLinks, offsetOf } from './offset-cursor';
import { StatNamePipe } from './stat-name.pipe';
import { detailsJson, failureEventJson, failureJson, iso, statJson } from './test-json';

const DEFAULT_PER_PAGE = 10;

const filtersOf = (params: TestFilterParams & Partial<SearchTestsParams>): SearchFilters => ({
  testName: params.test_name,
  testNameExclude: params.test_name_exclude,
  pipelineName: params.pipeline_name,
  pipelineNameExclude: params.pipeline_name_exclude,
  jobName: params.job_name,
  jobNameExclude: params.job_name_exclude,
  healthStatus: params.health_status,
  healthStatusExclude: params.health_status_exclude,
  impact: params.failed_executions_impact,
  impactExclude: params.failed_executions_impact_exclude,
  isQuarantined: params.is_quarantined,
});

const scopeOf = (repository: RepositoryRef, testId: string, params: TestScopeParams): TestScope => ({
  repository: repository.key,
  testId,
  pipelineName: params.pipeline_name,
  jobName: params.job_name,
});

/** Test insights reads (spec "Test engine"), all from default-branch runs. */
@ApiTags('Test engine')
@Auth('STD')
@Controller('v1/ci/:owner/repositories/:repository')
export class TestInsightsController {
  constructor(private readonly insights: TestInsightsService) {}

  @Get('search/tests')
  async search(
    @RepositoryRefParam() repository: RepositoryRef,
    @Query() params: SearchTestsParams,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const perPage = params.per_page ?? DEFAULT_PER_PAGE;
    const offset = offsetOf(params.cursor);
    const { rows, total } = await this.insights.search(repository, filtersOf(params), {
      sort: params.sort ?? 'executions_count',
      direction: params.direction ?? 'desc',
      offset,
      perPage,
    });
    setLinkHeader(reply, request, offsetLinks(offset, perPage, offset + rows.length < total));
    return {
      size: rows.length,
      per_page: perPage,
      total,
      tests: rows.map((row) => ({
        test_id: row.testId,
        test_name: row.testName,
        pipeline_name: row.pipelineName,
        job_name: row.jobName,
        is_quarantined: row.isQuarantined,
        metrics: {
          health_status: row.healthStatus,
          health_confidence: row.healthConfidence,
          failed_executions_impact: row.failedExecutionsImpact,
        },
      })),
    };
  }

  @Get('tests/stats/:stat')
  async repositoryStat(
    @RepositoryRefParam() repository: RepositoryRef,
    @Param('stat', new StatNamePipe(REPOSITORY_TEST_STATS))
    stat: RepositoryTestStat,
    @Query() params: SearchTestsParams,
  ) {
    const { value, points } = await this.insights.repositoryStat(repository, stat, filtersOf(params));
    return statJson(stat, value, points);
  }

  @Get('tests/:test_id')
  async details(
    @RepositoryRefParam() repository: RepositoryRef,
    @Param('test_id', UuidPipe) testId: string,
    @Query() params: TestScopeParams,
  ) {
    return detailsJson(
      repository.key,
      testId,
      await this.insights.details(scopeOf(repository, testId, params)),
    );
  }

  @Get('tests/:test_id/stats/:stat')
  async stat(
    @RepositoryRefParam() repository: RepositoryRef,
    @Param('test_id', UuidPipe) testId: string,
    @Param('stat', new StatNamePipe(TEST_STATS)) stat: TestStat,
    @Query() params: TestStatParams,
  ) {
    const { value, points } = await this.insights.stat(
      scopeOf(repository, testId, params),
      stat,
      windowDays(params.window ?? '7d'),
    );
    return statJson(stat, value, points);
  }

  @Get('tests/:test_id/health-transitions')
  async transitions(
    @RepositoryRefParam() repository: RepositoryRef,
    @Param('test_id', UuidPipe) testId: string,
    @Query() params: HealthTransitionParams,
  ) {
    const { transitions, firstActivityAt } = await this.insights.transitions(
      scopeOf(repository, testId, params),
      windowDays(params.window ?? '30d'),
    );
    return {
      transitions: transitions.map((point) => ({
        at: iso(point.at),
        health_status: point.healthStatus,
        exception_type: point.exceptionType,
        // No commit-to-pull-request map exists yet (no merge events from the code host).
        pull_request: null,
      })),
      first_activity_at: iso(firstActivityAt),
    };
  }

  @Get('tests/:test_id/failures')
  async failures(
    @RepositoryRefParam() repository: RepositoryRef,
    @Param('test_id', UuidPipe) testId: string,
    @Query() params: TestScopeParams,
  ) {
    const failures = await this.insights.failures(scopeOf(repository, testId, params));
    return { failures: failures.map(failureJson) };
  }

  @Get('tests/:test_id/failures/:failure_id')
  async failure(
    @RepositoryRefParam() repository: RepositoryRef,
    @Param('test_id', UuidPipe) testId: string,
    @Param('failure_id', UuidPipe) failureId: string,
    @Query() params: TestScopeParams,
  ) {
    const { failure, events } = await this.insights.failure(scopeOf(repository, testId, params), failureId);
    return { ...failureJson(failure), latest_events: events.map(failureEventJson) };
  }

  @Get('tests/:test_id/executions')
  async executions(
    @RepositoryRefParam() repository: RepositoryRef,
    @Param('test_id', UuidPipe) testId: string,
    @Query() params: TestExecutionsParams,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const perPage = params.per_page ?? DEFAULT_PER_PAGE;
    const offset = offsetOf(params.cursor);
    const rows = await this.insights.executions(scopeOf(repository, testId, {}), {
      sort: params.sort ?? 'executions_count',
      direction: params.direction ?? 'desc',
      offset,
      perPage: perPage + 1,
      days: windowDays(params.window ?? '30d'),
    });
    const page = rows.slice(0, perPage);
    setLinkHeader(reply, request, offsetLinks(offset, perPage, rows.length > perPage));
    return {
      size: page.length,
      per_page: perPage,
      executions: page.map((row) => ({
        test_id: testId,
        test_name: row.testName,
        pipeline_name: row.pipelineName,
        job_name: row.jobName,
        executions_count: row.executionsCount,
      })),
    };
  }
}
