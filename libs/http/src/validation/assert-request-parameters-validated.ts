import type { INestApplication, Type } from '@nestjs/common';
import { ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import { ModulesContainer } from '@nestjs/core';
import { REQUEST_VALIDATION } from './validated-params';

/** What the request sends: these must be validated. Custom parameters (principal, repository) check themselves. */
const REQUEST_INPUT = new Map<number, string>([
  [RouteParamtypes.BODY, 'body'],
  [RouteParamtypes.QUERY, 'query'],
  [RouteParamtypes.PARAM, 'path'],
]);

interface RouteArgument {
  index: number;
  data?: unknown;
  pipes?: unknown[];
}

function methodNames(controller: Type): string[] {
  const names = new Set<string>();
  for (
    let proto = controller.prototype;
    proto && proto !== Object.prototype;
    proto = Object.getPrototypeOf(proto)
  )
    for (const name of Object.getOwnPropertyNames(proto)) if (name !== 'constructor') names.add(name);
  return [...names];
}

/** Each body, query or path parameter of these controllers that does not run REQUEST_VALIDATION. */
export function unvalidatedRequestParameters(controllers: Iterable<Type>): string[] {
  const refused: string[] = [];
  for (const controller of controllers) {
    for (const method of methodNames(controller)) {
      const args: Record<string, RouteArgument> =
        Reflect.getMetadata(ROUTE_ARGS_METADATA, controller, method) ?? {};
      for (const [key, argument] of Object.entries(args)) {
        const input = REQUEST_INPUT.get(Number(key.split(':')[0]));
        if (input && !argument.pipes?.includes(REQUEST_VALIDATION))
          refused.push(`${controller.name}.${method}: ${input} parameter ${argument.index}`);
      }
    }
  }
  return refused;
}

/**
 * There is no global validation pipe (see validated-params.ts), so an app whose controller takes
 * Nest's own @Body, @Query or @Param would serve that input unchecked: it does not start.
 */
export function assertRequestParametersValidated(app: INestApplication): void {
  const controllers: Type[] = [];
  for (const module of app.get(ModulesContainer).values())
    for (const wrapper of module.controllers.values())
      if (wrapper.metatype) controllers.push(wrapper.metatype as Type);
  const refused = unvalidatedRequestParameters(controllers);
  if (refused.length > 0)
    throw new Error(
      `These parameters skip request validation; take Body, Query and Param from @switchyard/http:\n  ${refused.join('\n  ')}`,
    );
}
