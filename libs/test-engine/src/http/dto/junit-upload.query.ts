import { IsInt, IsOptional, IsString, Max, Min } from 'class-validator';
import { IsStorableString, MinCodePoints, QueryInt } from '@switchyard/http';

const Text = (max = 255) => [IsOptional(), IsString(), MinCodePoints(1), IsStorableString(max)];
const apply =
  (decorators: PropertyDecorator[]): PropertyDecorator =>
  (target, key) =>
    decorators.forEach((decorator) => decorator(target, key));

/**
 * The run a JUnit report belongs to, which an OTLP upload carries as resource attributes
 * (ci-insights §1.3). Without `branch`, the run is not on the default branch and feeds no health.
 */
export class JunitUploadQuery {
  @apply(Text()) pipeline_name?: string;
  @apply(Text()) job_name?: string;
  @apply(Text()) head_sha?: string;
  @apply(Text()) branch?: string;
  @apply(Text()) base_branch?: string;
  @apply(Text()) run_id?: string;
  @IsOptional() @QueryInt() @IsInt() @Min(1) @Max(2147483647) run_attempt?: number;
  @apply(Text(2048)) run_url?: string;
  @apply(Text()) provider?: string;
  @apply(Text()) test_framework?: string;
  @apply(Text()) test_framework_version?: string;
  @apply(Text()) test_language?: string;
}
