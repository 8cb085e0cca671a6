import { applyDecorators } from '@nestjs/common';
import { IsBoolean, IsIn, IsOptional, IsString } from 'class-validator';
import { IsStorableString, MinCodePoints, PageParams, QueryArray, QueryBoolean } from '@switchyard/http';
import { EXECUTION_SORTS, type ExecutionSort } from '../../queries/test-executions';
import { SEARCH_SORTS, type SearchSort } from '../../queries/search-tests';

const Names = () =>
  applyDecorators(
    IsOptional(),
    QueryArray(),
    IsString({ each: true }),
    MinCodePoints(1, { each: true }),
    IsStorableString(255, { each: true }),
  );
const OneOf = (values: readonly string[]) =>
  applyDecorators(IsOptional(), QueryArray(), IsIn([...values], { each: true }));
const Name = () => applyDecorators(IsOptional(), IsString(), MinCodePoints(1), IsStorableString(255));
const Direction = () => applyDecorators(IsOptional(), IsIn(['asc', 'desc']));

const HEALTH = ['healthy', 'flaky', 'broken'];
const IMPACT = ['low', 'medium', 'high'];

/** Filters shared by search/tests and tests/stats/{stat}. */
export class TestFilterParams {
  @Names() test_name?: string[];
  @Names() test_name_exclude?: string[];
  @Names() pipeline_name?: string[];
  @Names() pipeline_name_exclude?: string[];
  @Names() job_name?: string[];
  @Names() job_name_exclude?: string[];
  @OneOf(IMPACT) failed_executions_impact?: ('low' | 'medium' | 'high')[];
  @OneOf(IMPACT) failed_executions_impact_exclude?: ('low' | 'medium' | 'high')[];
}

export class SearchTestsParams extends TestFilterParams {
  @OneOf(HEALTH) health_status?: ('healthy' | 'flaky' | 'broken')[];
  @OneOf(HEALTH) health_status_exclude?: ('healthy' | 'flaky' | 'broken')[];
  @IsOptional() @QueryBoolean() @IsBoolean() is_quarantined?: boolean;
  @PageParams.cursor() cursor?: string;
  @PageParams.perPage() per_page?: number;
  @IsOptional() @IsIn([...SEARCH_SORTS]) sort?: SearchSort;
  @Direction() direction?: 'asc' | 'desc';
}

/** pipeline_name / job_name narrowing of the per-test endpoints (omit = across all). */
export class TestScopeParams {
  @Name() pipeline_name?: string;
  @Name() job_name?: string;
}

export class TestStatParams extends TestScopeParams {
  @IsOptional() @IsIn(['7d', '30d']) window?: '7d' | '30d';
}

export class HealthTransitionParams extends TestScopeParams {
  @IsOptional() @IsIn(['7d', '30d', '90d']) window?: '7d' | '30d' | '90d';
}

export class TestExecutionsParams {
  @PageParams.cursor() cursor?: string;
  @PageParams.perPage() per_page?: number;
  @IsOptional() @IsIn([...EXECUTION_SORTS]) sort?: ExecutionSort;
  @Direction() direction?: 'asc' | 'desc';
  @IsOptional() @IsIn(['7d', '30d']) window?: '7d' | '30d';
}
