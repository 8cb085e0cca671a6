import { applyDecorators } from '@nestjs/common';
import { IsStorableString, IsUuid, MinCodePoints, PageParams, QueryArray } from '@switchyard/http';
import { IsIn, IsOptional, IsString } from 'class-validator';
import { HEALTH_STATUSES, type HealthStatus } from '../../domain/health-status';
import { QUARANTINE_SORTS, type QuarantineSort, type SortDirection } from '../../domain/quarantine-listing';
import type { QuarantineSource } from '../../domain/test-quarantine';
import type { QuarantineRowFilters } from '../../projection/test-quarantine.read-model';

const Names = () =>
  applyDecorators(
    IsOptional(),
    QueryArray(),
    IsString({ each: true }),
    IsStorableString(undefined, { each: true }),
  );
const Healths = () => applyDecorators(IsOptional(), QueryArray(), IsIn([...HEALTH_STATUSES], { each: true }));

/** GET quarantines (spec "Quarantine list filters"). */
export class QuarantineListParams {
  /** Deprecated: quarantines of this branch and of every branch. */
  @IsOptional()
  @IsString()
  @MinCodePoints(1)
  @IsStorableString(255)
  branch?: string;

  @IsOptional()
  @QueryArray()
  @IsUuid({ each: true })
  test_id?: string[];

  @IsOptional()
  @QueryArray()
  @IsIn(['manual', 'auto'], { each: true })
  source?: QuarantineSource[];

  @Names() branch_name?: string[];
  @Names() branch_name_exclude?: string[];
  @Names() pipeline_name?: string[];
  @Names() pipeline_name_exclude?: string[];
  @Names() job_name?: string[];
  @Names() job_name_exclude?: string[];
  @Names() test_name?: string[];
  @Names() test_name_exclude?: string[];
  @Healths() health_status?: HealthStatus[];
  @Healths() health_status_exclude?: HealthStatus[];

  @PageParams.cursor() cursor?: string;
  @PageParams.perPage() per_page?: number;

  @IsOptional()
  @IsIn([...QUARANTINE_SORTS])
  sort?: QuarantineSort;

  @IsOptional()
  @IsIn(['asc', 'desc'])
  direction?: SortDirection;
}

export const rowFiltersOf = (params: QuarantineListParams): QuarantineRowFilters => ({
  branch: params.branch,
  testIds: params.test_id,
  sources: params.source,
  branchNames: params.branch_name,
  branchNamesExcluded: params.branch_name_exclude,
  pipelineNames: params.pipeline_name,
  pipelineNamesExcluded: params.pipeline_name_exclude,
  jobNames: params.job_name,
  jobNamesExcluded: params.job_name_exclude,
  testNames: params.test_name,
  testNamesExcluded: params.test_name_exclude,
});
