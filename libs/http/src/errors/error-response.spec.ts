import { ForbiddenException, NotFoundException, UnprocessableEntityException } from '@nestjs/common';
import { WrongExpectedRevisionError } from '@switchyard/event-store';
import { DomainError, type DomainErrorKind } from '@switchyard/kernel';
import { ReadModelStoppedError } from '@switchyard/projection';
import { JsonBodyDecodeError } from '../body/json-body-decode.error';
import { JsonBodyReservedKeyError } from '../body/json-body-reserved-key.error';
import { JsonBodyTooDeepError } from '../body/json-body-too-deep.error';
import { RequestValidationException } from '../validation/validation-issue';
import { errorResponseFor } from './error-response';

const matched = { routeMatched: true };

describe('errorResponseFor', () => {
  it.each<[DomainErrorKind, number]>([
    ['bad_request', 400],
    ['forbidden', 403],
    ['not_found', 404],
    ['conflict', 409],
    ['unprocessable', 422],
  ])('maps a %s DomainError to %i with its message', (kind, status) => {
    expect(errorResponseFor(new DomainError(kind, 'The merge queue is not paused'), matched)).toEqual({
      status,
      body: { detail: 'The merge queue is not paused' },
      unexpected: false,
    });
  });

  it('refuses with 503 and Retry-After when a read model the write needs has stopped', () => {
    const refusal = new ReadModelStoppedError(['repository.scheduled_freezes']);
    expect(errorResponseFor(refusal, matched)).toEqual({
      status: 503,
      body: { detail: refusal.message },
      unexpected: false,
      headers: { 'retry-after': '60' },
    });
  });

  it('uses an HttpException message as detail', () => {
    expect(errorResponseFor(new ForbiddenException(), matched).body).toEqual({ detail: 'Forbidden' });
    expect(errorResponseFor(new UnprocessableEntityException('Invalid cursor'), matched)).toEqual({
      status: 422,
      body: { detail: 'Invalid cursor' },
      unexpected: false,
    });
  });

  it('keeps the FastAPI issue list of a validation failure', () => {
    const issue = { type: 'missing', loc: ['body', 'reason'], msg: 'Field required', input: {} };
    expect(errorResponseFor(new RequestValidationException([issue]), matched).body).toEqual({
      detail: [issue],
    });
  });

  it('says "Not Found" for unmatched routes, but keeps a handler\'s own 404 message', () => {
    expect(errorResponseFor(new NotFoundException('Cannot GET /nope'), { routeMatched: false }).body).toEqual(
      {
        detail: 'Not Found',
      },
    );
    expect(errorResponseFor(new NotFoundException('Not found'), matched).body).toEqual({
      detail: 'Not found',
    });
  });

  it('describes malformed JSON like FastAPI', () => {
    expect(errorResponseFor(new JsonBodyDecodeError(5, 'Expecting value'), matched)).toEqual({
      status: 422,
      body: {
        detail: [
          {
            type: 'json_invalid',
            loc: ['body', 5],
            msg: 'JSON decode error',
            input: {},
            ctx: { error: 'Expecting value' },
          },
        ],
      },
      unexpected: false,
    });
  });

  it('answers 400 to a body nested too deep', () => {
    expect(errorResponseFor(new JsonBodyTooDeepError(), matched)).toEqual({
      status: 400,
      body: { detail: 'JSON body nests arrays and objects deeper than 64 levels' },
      unexpected: false,
    });
  });

  it('answers 400 to a body using the reserved key "constructor"', () => {
    expect(errorResponseFor(new JsonBodyReservedKeyError(), matched).status).toBe(400);
  });

  it('answers 409 when the command service gave up on a concurrency conflict', () => {
    const response = errorResponseFor(new WrongExpectedRevisionError('s-1', '3', 4n), matched);
    expect(response.status).toBe(409);
    expect(response.unexpected).toBe(false);
  });

  it('hides unknown errors behind a 500 and flags them for the log', () => {
    expect(errorResponseFor(new Error('password=hunter2 leaked in a message'), matched)).toEqual({
      status: 500,
      body: { detail: 'Internal Server Error' },
      unexpected: true,
    });
  });
});
