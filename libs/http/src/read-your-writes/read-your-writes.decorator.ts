import { applyDecorators, HttpStatus, RequestMethod } from '@nestjs/common';
import { HTTP_CODE_METADATA, METHOD_METADATA } from '@nestjs/common/constants';
import { ApiAcceptedResponse, ApiResponse } from '@nestjs/swagger';

/** Where @nestjs/swagger keeps a route's declared responses (its DECORATORS.API_RESPONSE, not exported). */
const API_RESPONSES_METADATA = 'swagger/apiResponse';

export const NOT_YET_VISIBLE_RESPONSE =
  'The change is stored and will take effect, but the read models did not show it when the answer ' +
  'was due (read-your-writes): a read right after may not show it yet. The body is the one the ' +
  'success carries, or {"detail"} when the success has none. Do not send it again.';

/**
 * Marks a write that waits for its read models to show it (read-your-writes), and so may answer
 * 202 Accepted instead of its success status when that wait ends first
 * (WriteVisibilityInterceptor). Put on exactly those routes: it is what declares the 202 in
 * /v1/openapi.json, and the OpenAPI e2e holds it to what the routes answer.
 *
 * It goes above the route's other decorators (they are applied before it), so that it can keep
 * the success status in the document: Swagger lists the route's own status only while no response
 * is declared, and would otherwise list the 202 alone.
 */
export const ReadYourWrites = (): MethodDecorator => (target, key, descriptor) => {
  const handler = descriptor.value as object;
  const method = Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod | undefined;
  if (method === undefined)
    throw new Error(`@ReadYourWrites() goes above the route decorator (${String(key)})`);
  const declared = (Reflect.getMetadata(API_RESPONSES_METADATA, handler) ?? {}) as Record<string, unknown>;
  const success =
    (Reflect.getMetadata(HTTP_CODE_METADATA, handler) as number | undefined) ??
    (method === RequestMethod.POST ? HttpStatus.CREATED : HttpStatus.OK);
  const decorators = [ApiAcceptedResponse({ description: NOT_YET_VISIBLE_RESPONSE })];
  if (!(String(success) in declared)) decorators.push(ApiResponse({ status: success, description: '' }));
  applyDecorators(...decorators)(target, key, descriptor);
};
