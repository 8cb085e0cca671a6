import { HttpException, HttpStatus } from '@nestjs/common';

/** Where a request value came from, as FastAPI names it in `loc[0]`. */
export type RequestLocation = 'body' | 'query' | 'path' | 'header';

/**
 * One request-validation failure in FastAPI / pydantic v2 form (client-contract §2.1):
 * `{"type":"missing","loc":["body","delete_reason"],"msg":"Field required","input":{}}`.
 */
export interface ValidationIssue {
  type: string;
  loc: Array<string | number>;
  msg: string;
  input: unknown;
  ctx?: Record<string, unknown>;
}

/** The shape of an issue before it knows where it is. */
export interface IssueShape {
  type: string;
  msg: string;
  ctx?: Record<string, unknown>;
}

/** 422 with `{"detail": [issues]}`; the error filter sends the body as it is. */
export class RequestValidationException extends HttpException {
  constructor(readonly issues: ValidationIssue[]) {
    super({ detail: issues }, HttpStatus.UNPROCESSABLE_ENTITY);
  }
}

export const issueAt = (loc: Array<string | number>, input: unknown, shape: IssueShape): ValidationIssue => ({
  type: shape.type,
  loc,
  msg: shape.msg,
  input,
  ...(shape.ctx ? { ctx: shape.ctx } : {}),
});
