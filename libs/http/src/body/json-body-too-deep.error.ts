import { MAX_JSON_NESTING_DEPTH } from './json-nesting-depth';

/** A JSON body nested deeper than MAX_JSON_NESTING_DEPTH: refused with 400 before it is parsed. */
export class JsonBodyTooDeepError extends Error {
  constructor(readonly maxDepth = MAX_JSON_NESTING_DEPTH) {
    super(`JSON body nests arrays and objects deeper than ${maxDepth} levels`);
    this.name = 'JsonBodyTooDeepError';
  }
}
