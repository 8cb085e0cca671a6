import fc from 'fast-check';
import type { FuzzEndpoint } from './endpoints';
import { bodyLike, strayBody, type BodyText } from './hostile-json';
import { pathParameters, type FuzzState } from './path-parameters';
import { queryLike, renderQuery } from './url-text';

/** One request, ready for the wire: the path is already encoded, query string included. */
export interface FuzzRequest {
  method: string;
  path: string;
  body?: BodyText;
  token: string | null;
}

/** Credentials: mostly the admin key, so requests get past the guard, and now and then not. */
export interface FuzzCredentials {
  admin: string;
  others: readonly string[];
}

const PLACEHOLDER = /\{(\w+)\}/g;

/** The arbitrary of requests to one endpoint of the table. */
export function requestsTo(
  endpoint: FuzzEndpoint,
  state: FuzzState,
  credentials: FuzzCredentials,
): fc.Arbitrary<FuzzRequest> {
  const parameters = pathParameters(state);
  const names = [...endpoint.path.matchAll(PLACEHOLDER)].map((match) => match[1]!);
  const segments = names.map((name) => {
    const arbitrary = parameters[name];
    if (!arbitrary)
      throw new Error(`No arbitrary for the path parameter {${name}}: add it to path-parameters.ts`);
    return arbitrary;
  });
  const methods = typeof endpoint.method === 'string' ? [endpoint.method] : endpoint.method;
  return fc
    .record({
      method: fc.constantFrom(...methods),
      values: fc.tuple(...segments),
      query: queryLike(endpoint.query ?? {}),
      body: endpoint.body ? bodyLike(endpoint.body) : strayBody,
      token: fc.oneof(
        { weight: 8, arbitrary: fc.constant<string | null>(credentials.admin) },
        { weight: 1, arbitrary: fc.constantFrom<string | null>(null, 'garbage', ...credentials.others) },
      ),
    })
    .map(({ method, values, query, body, token }) => {
      let index = 0;
      const path = endpoint.path.replace(PLACEHOLDER, () => values[index++]!) + renderQuery(query);
      const request: FuzzRequest = { method, path, token, ...(body ? { body } : {}) };
      // fast-check prints counterexamples with this: huge bodies and paths stay readable.
      return Object.assign(request, { [fc.toStringMethod]: () => describeRequest(request) });
    });
}

/** How a request is shown in a failure: short enough to read, exact enough to replay. */
export function describeRequest(request: FuzzRequest): string {
  const body = request.body ? ` [${request.body.contentType}] ${abridged(request.body.text)}` : '';
  return `${request.method} ${abridged(request.path)}${body} (token: ${request.token === null ? 'none' : abridged(request.token, 12)})`;
}

const abridged = (text: string, limit = 300): string =>
  text.length > limit ? `${text.slice(0, limit)}… (${text.length} chars)` : text;
