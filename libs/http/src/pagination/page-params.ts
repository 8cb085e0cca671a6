import { applyDecorators } from '@nestjs/common';
import { IsInt, IsOptional, IsString, Max, Min } from 'class-validator';
import { QueryInt } from '../validation/decorators/query-transforms';

/** The most items one page of any listing holds. */
export const MAX_PER_PAGE = 100;

/**
 * The page parameters every cursor-paged listing of the API takes, declared once. They are field
 * decorators rather than a base class so each query DTO keeps its fields in its own order:
 * class-validator lists a subclass's fields before its base class's, which would reorder the
 * issues of a request that breaks several rules.
 */
export const PageParams = {
  /** `cursor`: where the page starts, as the previous page's Link header gave it. */
  cursor: (): PropertyDecorator => applyDecorators(IsOptional(), IsString()),
  /** `per_page`: how many items the page holds, 1 to MAX_PER_PAGE. */
  perPage: (): PropertyDecorator =>
    applyDecorators(IsOptional(), QueryInt(), IsInt(), Min(1), Max(MAX_PER_PAGE)),
};
