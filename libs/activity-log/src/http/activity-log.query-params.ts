import { IsIn, IsInt, IsOptional, IsString, Min } from 'class-validator';
import {
  IsRfc3339DateTime,
  IsStorableString,
  LessThan,
  MinCodePoints,
  PageParams,
  QueryArray,
  QueryInt,
  parseRfc3339,
} from '@switchyard/http';
import { applyDecorators } from '@nestjs/common';
import { ACCEPTED_EVENT_TYPE_FILTERS } from '@switchyard/activity-log-contract';
import type { LogQueryParameters } from '../domain/log-query';
import { OUTCOMES, type Outcome } from '../domain/outcome';

/** Spec "Limits": activity-log pull request numbers are >= 1 and < 2147483647. */
const PullRequestNumbers = () =>
  applyDecorators(
    IsOptional(),
    QueryArray(),
    QueryInt(),
    IsInt({ each: true }),
    Min(1, { each: true }),
    LessThan(2147483647, { each: true }),
  );

const EventTypes = () =>
  applyDecorators(IsOptional(), QueryArray(), IsIn(ACCEPTED_EVENT_TYPE_FILTERS as string[], { each: true }));

const Outcomes = () => applyDecorators(IsOptional(), QueryArray(), IsIn([...OUTCOMES], { each: true }));

/** Free text compared with stored values: what no store can hold (NUL, lone surrogates) is a 422. */
const Strings = () =>
  applyDecorators(
    IsOptional(),
    QueryArray(),
    IsString({ each: true }),
    IsStorableString(undefined, { each: true }),
  );

/** The filters GET logs and GET logs/aggregate share (spec "Activity log"). */
export class ActivityLogFilterParams {
  @PullRequestNumbers()
  pull_request?: number[];

  @PullRequestNumbers()
  not_pull_request?: number[];

  @IsOptional()
  @IsString()
  @MinCodePoints(1)
  @IsStorableString(255)
  base_ref?: string;

  @PullRequestNumbers()
  batch_pull?: number[];

  @PullRequestNumbers()
  not_batch_pull?: number[];

  @EventTypes()
  event_type?: string[];

  @EventTypes()
  not_event_type?: string[];

  @Outcomes()
  outcome?: Outcome[];

  @Outcomes()
  not_outcome?: Outcome[];

  @Strings()
  trigger?: string[];

  @Strings()
  not_trigger?: string[];

  /** With a UTC offset; offset-less values and Unix timestamps are refused. */
  @IsOptional()
  @IsRfc3339DateTime()
  received_from?: string;

  @IsOptional()
  @IsRfc3339DateTime()
  received_to?: string;
}

/** GET logs also pages. */
export class ActivityLogPageParams extends ActivityLogFilterParams {
  @PageParams.cursor() cursor?: string;
  @PageParams.perPage() per_page?: number;
}

export const DEFAULT_PER_PAGE = 10;

/** Validated text -> the domain's parameters (instants parsed; the validators already refused bad ones). */
export function toLogQueryParameters(params: ActivityLogFilterParams): LogQueryParameters {
  const instant = (text: string | undefined): Date | undefined => {
    if (text === undefined) return undefined;
    const parsed = parseRfc3339(text);
    return parsed.ok ? parsed.value.date : undefined;
  };
  const result: LogQueryParameters = {
    pull_request: params.pull_request,
    not_pull_request: params.not_pull_request,
    base_ref: params.base_ref,
    batch_pull: params.batch_pull,
    not_batch_pull: params.not_batch_pull,
    event_type: params.event_type,
    not_event_type: params.not_event_type,
    outcome: params.outcome,
    not_outcome: params.not_outcome,
    trigger: params.trigger,
    not_trigger: params.not_trigger,
    received_from: instant(params.received_from),
    received_to: instant(params.received_to),
  };
  return Object.fromEntries(
    Object.entries(result).filter(([, value]) => value !== undefined),
  ) as LogQueryParameters;
}
