import { Injectable, type ArgumentMetadata, type PipeTransform } from '@nestjs/common';
import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import { parseQueryBoolean } from './decorators/query-transforms';
import { issueShapes } from './issue-shapes';
import { issueAt, RequestValidationException, type RequestLocation } from './validation-issue';
import { validationErrorsToIssues } from './validation-errors-to-issues';

const LOCATIONS: Partial<Record<ArgumentMetadata['type'], RequestLocation>> = {
  body: 'body',
  query: 'query',
  param: 'path',
};

const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/**
 * The global pipe: DTO classes are built with class-transformer and checked with class-validator;
 * failures become one 422 `{"detail": [{type, loc, msg, input}]}` in FastAPI's shape. Properties
 * without any class-validator decorator are dropped (FastAPI ignores unknown fields too), so give
 * every DTO field at least one rule, `@IsOptional()` or `@Allow()`.
 *
 * Bare `@Query('x') x: number` / `boolean` parameters are converted strictly, never with `+value`
 * (which turns "" into 0 and "abc" into NaN). Custom parameter decorators are left alone.
 */
@Injectable()
export class RequestValidationPipe implements PipeTransform {
  async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    const location = LOCATIONS[metadata.type];
    const { metatype } = metadata;
    if (!location || !metatype || metatype === Object || metatype === Array) return value;
    const loc: Array<string | number> = metadata.data ? [location, metadata.data] : [location];

    if (
      metatype === Number ||
      metatype === Boolean ||
      metatype === String ||
      (metatype as unknown) === BigInt
    ) {
      return location === 'body' ? value : convertText(value, metatype, loc);
    }

    const plain = value === undefined && !metadata.data ? {} : value;
    if (plain === null || typeof plain !== 'object' || Array.isArray(plain)) {
      throw new RequestValidationException([issueAt(loc, plain ?? null, issueShapes.dictType())]);
    }
    const instance = plainToInstance(metatype as new () => object, plain);
    const errors = await validate(instance, {
      whitelist: true,
      forbidUnknownValues: false,
      validationError: { target: true, value: true },
    });
    if (errors.length > 0) throw new RequestValidationException(validationErrorsToIssues(errors, plain, loc));
    return instance;
  }
}

function convertText(value: unknown, metatype: unknown, loc: Array<string | number>): unknown {
  if (typeof value !== 'string') return value;
  if (metatype === Number) {
    if (!NUMBER.test(value))
      throw new RequestValidationException([issueAt(loc, value, issueShapes.floatParsing())]);
    return Number(value);
  }
  if (metatype === Boolean) {
    const parsed = parseQueryBoolean(value);
    if (typeof parsed !== 'boolean') {
      throw new RequestValidationException([issueAt(loc, value, issueShapes.boolParsing())]);
    }
    return parsed;
  }
  return value;
}
