import {
  Body as NestBody,
  Param as NestParam,
  Query as NestQuery,
  type PipeTransform,
  type Type,
} from '@nestjs/common';
import { RequestValidationPipe } from './request-validation.pipe';

type ParameterPipe = Type<PipeTransform> | PipeTransform;
type NestParameterDecorator = (...args: Array<string | ParameterPipe>) => ParameterDecorator;

/** The one validation pipe every body, query and path parameter runs first. */
export const REQUEST_VALIDATION = new RequestValidationPipe();

/**
 * Nest's decorator with REQUEST_VALIDATION bound ahead of the parameter's own pipes: the order a
 * global pipe gave. It is bound here rather than installed globally because Nest runs global pipes
 * on every parameter, the principal and the repository included, and each run is a chain of about
 * five promises: 4–5 µs of a 40–60 µs GET (bench:http; README, "Development").
 * assertRequestParametersValidated refuses to start an app with a parameter that skips it.
 */
const validated =
  (decorator: NestParameterDecorator) =>
  (propertyOrPipe?: string | ParameterPipe, ...pipes: ParameterPipe[]): ParameterDecorator =>
    typeof propertyOrPipe === 'string'
      ? decorator(propertyOrPipe, REQUEST_VALIDATION, ...pipes)
      : decorator(REQUEST_VALIDATION, ...(propertyOrPipe === undefined ? [] : [propertyOrPipe]), ...pipes);

/** `@Body()`, `@Body('field')`, `@Body(SomePipe)`: Nest's, validated. */
export const Body = validated(NestBody as NestParameterDecorator);
/** `@Query()`, `@Query('name')`: Nest's, validated. */
export const Query = validated(NestQuery as NestParameterDecorator);
/** `@Param('name')`, `@Param('name', SomePipe)`: Nest's, validated. */
export const Param = validated(NestParam as NestParameterDecorator);
