import { hasConstructorKey, mayHoldConstructorKey } from './json-constructor-key';
import { JsonBodyDecodeError } from './json-body-decode.error';
import { JsonBodyReservedKeyError } from './json-body-reserved-key.error';
import { JsonBodyTooDeepError } from './json-body-too-deep.error';
import { exceedsJsonNestingDepth } from './json-nesting-depth';
import { findJsonSyntaxError } from './json-syntax-position';
import { wantsRawJsonBody } from './raw-json-body';

type Done = (error: Error | null, body?: unknown) => void;
export type JsonBodyParser = (request: unknown, body: Buffer | string, done: Done) => void;

/** The one Fastify method the parser needs (typed loosely: Nest and Fastify disagree on generics). */
export interface DefaultJsonParserSource {
  getDefaultJsonParser(onProtoPoisoning: 'error', onConstructorPoisoning: 'error'): unknown;
}

/**
 * application/json bodies: an empty body is "no body" (FastAPI then reports the missing fields), a
 * body nested beyond MAX_JSON_NESTING_DEPTH is a JsonBodyTooDeepError before anything recursive
 * (the parser, the syntax scan, the validators) sees it, malformed JSON is a JsonBodyDecodeError
 * carrying the offset, and everything else goes through Fastify's own parser, which also refuses
 * `__proto__` / `constructor` poisoning; any other `constructor` key is a JsonBodyReservedKeyError.
 * A route marked @RawJsonBody() gets the bytes as sent instead (signed webhooks).
 */
export function createJsonBodyParser(fastify: DefaultJsonParserSource): JsonBodyParser {
  const standard = fastify.getDefaultJsonParser('error', 'error') as (
    request: unknown,
    body: string,
    done: Done,
  ) => void;
  return (request, body, done) => {
    if (wantsRawJsonBody(request)) {
      done(null, typeof body === 'string' ? Buffer.from(body, 'utf8') : body);
      return;
    }
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim().length === 0) {
      done(null, undefined);
      return;
    }
    if (exceedsJsonNestingDepth(text)) {
      done(new JsonBodyTooDeepError(), undefined);
      return;
    }
    standard(request, text, (error, parsed) => {
      if (!error) {
        const reserved = mayHoldConstructorKey(text) && hasConstructorKey(parsed);
        done(reserved ? new JsonBodyReservedKeyError() : null, reserved ? undefined : parsed);
        return;
      }
      const syntax = findJsonSyntaxError(text);
      // Valid JSON refused anyway means prototype poisoning: keep Fastify's 400.
      done(syntax ? new JsonBodyDecodeError(syntax.position, syntax.reason) : error, undefined);
    });
  };
}
