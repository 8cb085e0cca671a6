/**
 * A refusal the domain can explain to a caller. The kind decides the HTTP status at the edge
 * (bad_request 400, forbidden 403, not_found 404, conflict 409, unprocessable 422); the domain
 * never knows about HTTP itself.
 */
export type DomainErrorKind = 'bad_request' | 'forbidden' | 'not_found' | 'conflict' | 'unprocessable';

export class DomainError extends Error {
  constructor(
    readonly kind: DomainErrorKind,
    message: string,
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

export const notFound = (message: string) => new DomainError('not_found', message);
export const badRequest = (message: string) => new DomainError('bad_request', message);
export const conflict = (message: string) => new DomainError('conflict', message);
export const unprocessable = (message: string) => new DomainError('unprocessable', message);

/**
 * An unprocessable value in one named input field, so an HTTP edge can answer with an issue that
 * points at the field; other callers see an ordinary unprocessable DomainError.
 */
export class InvalidFieldError extends DomainError {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super('unprocessable', message);
    this.name = 'InvalidFieldError';
  }
}

export const invalidField = (field: string, message: string) => new InvalidFieldError(field, message);
