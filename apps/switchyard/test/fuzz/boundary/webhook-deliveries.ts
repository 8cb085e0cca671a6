import examples from '@octokit/webhooks-examples/api.github.com/index.json';
import fc from 'fast-check';
import { INTAKE_READS } from '@switchyard/github/webhooks/door/intake-reads';
import { anyJson, deeplyNested, RawJson, renderJson } from '../hostile-json';
import { hostileString, oddNumberText } from '../hostile-text';

/** One delivery, ready to sign and send: the event header and the body exactly as sent. */
export interface FuzzDelivery {
  event: string;
  body: string;
  /** What was done to GitHub's example, for the failure message. */
  mutations: string[];
}

type Json = unknown;
type Path = readonly (string | number)[];

/** The fuzz suite's own repository in every delivery, so the facts land on streams it owns. */
export const HOOKS_OWNER = 'fuzz-hooks';
export const HOOKS_REPOSITORY = 'hooks';

const examplesOf = (event: string): Record<string, Json>[] =>
  (examples as { name: string; examples: Record<string, Json>[] }[]).find((group) => group.name === event)
    ?.examples ?? [];

/** GitHub's own examples of every event the intake reads, moved to the fuzz repository. */
function baseDeliveries(): { event: string; payload: Record<string, Json> }[] {
  return Object.keys(INTAKE_READS).flatMap((event) =>
    examplesOf(event).map((example) => {
      const payload = structuredClone(example) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
      if (payload.repository) {
        payload.repository.full_name = `${HOOKS_OWNER}/${HOOKS_REPOSITORY}`;
        payload.repository.name = HOOKS_REPOSITORY;
        if (payload.repository.owner) payload.repository.owner.login = HOOKS_OWNER;
      }
      // Comments on pull requests carrying a command, so the command path is fuzzed too.
      if (event === 'issue_comment' && payload.issue && payload.comment) {
        payload.issue.pull_request ??= { url: 'https://api.github.com/repos/fuzz-hooks/hooks/pulls/1' };
        payload.comment.body = '@mergify refresh';
      }
      return { event, payload };
    }),
  );
}

/** Every path of a JSON value (objects' fields and arrays' items), the value's own included. */
function pathsOf(value: Json, path: Path = [], into: Path[] = []): Path[] {
  into.push(path);
  if (Array.isArray(value)) value.slice(0, 3).forEach((item, index) => pathsOf(item, [...path, index], into));
  else if (typeof value === 'object' && value !== null)
    for (const [key, item] of Object.entries(value)) pathsOf(item, [...path, key], into);
  return into;
}

/** The paths the intake reads of an event (intake-reads.ts), items of arrays at index 0. */
function readPaths(tree: unknown, path: Path = [], into: Path[] = []): Path[] {
  if (path.length > 0) into.push(path);
  if (Array.isArray(tree)) readPaths(tree[0], [...path, 0], into);
  else if (typeof tree === 'object' && tree !== null)
    for (const [key, sub] of Object.entries(tree)) readPaths(sub, [...path, key], into);
  return into;
}

type Mutation = { name: string; apply: (payload: Json, path: Path) => Json };

const OVERSIZED = 'x'.repeat(70_000);

const DROP = Symbol('drop');

const setTo = (name: string, value: Json | typeof DROP): Mutation => ({
  name,
  apply: (payload, path) => setAt(payload, path, value),
});

const MUTATIONS: fc.Arbitrary<Mutation> = fc.oneof(
  fc.constant(setTo('dropped', DROP)),
  fc.constant(setTo('nulled', null)),
  fc
    .constantFrom<Json>('abc', 1.5, -1, 2 ** 31, 2 ** 53 + 2, true, [], {}, ['x'], { name: 1 }, '')
    .map((value) => setTo(`retyped to ${JSON.stringify(value)}`, value)),
  fc
    .constantFrom('a\u0000b', '\u0000', 'x\ud800', '\udfff', 'ok\u0000@mergify queue')
    .map((value) => setTo(`set to ${JSON.stringify(value)}`, value)),
  fc.constant(setTo('oversized', OVERSIZED)),
  hostileString.map((value) => setTo(`set to ${JSON.stringify(value).slice(0, 60)}`, value)),
  oddNumberText.map((text) => setTo(`set to ${text}`, new RawJson(text))),
  fc
    .constantFrom('"\\ud800"', '"a\\u0000b"', '"\\udc00x"')
    .map((text) => setTo(`set to the escape ${text}`, new RawJson(text))),
  deeplyNested.map((nested) => setTo('deeply nested', nested)),
  anyJson.map((value) => setTo('anything', value)),
);

/** A copy of `value` with `path` set (or removed); RawJson values survive the copy as they are. */
function setAt(value: Json, path: Path, replacement: Json | typeof DROP): Json {
  if (path.length === 0) return replacement === DROP ? {} : replacement;
  if (typeof value !== 'object' || value === null || value instanceof RawJson) return value;
  const [head, ...rest] = path;
  const copy: Record<string | number, Json> | Json[] = Array.isArray(value) ? [...value] : { ...value };
  const key = head as never;
  if (!(head! in copy)) return value;
  if (rest.length === 0 && replacement === DROP) {
    if (Array.isArray(copy)) copy.splice(Number(head), 1);
    else delete (copy as Record<string, Json>)[head as string];
  } else (copy as Record<string, Json>)[key] = setAt((copy as Record<string, Json>)[key], rest, replacement);
  return copy;
}

const pathText = (path: Path) => (path.length === 0 ? '(the body)' : path.join('.'));

/**
 * Signed-to-be deliveries of every event type the intake reads: GitHub's own examples with up to
 * three fields (mostly ones the intake reads) dropped, nulled, retyped, made NUL-laden or lone
 * surrogates, oversized or nested deep; now and then the example as it is, a body that is not a
 * JSON object, or one event's body under another event's name.
 */
export function webhookDeliveries(): fc.Arbitrary<FuzzDelivery> {
  const bases = baseDeliveries();
  const base = fc.constantFrom(...bases);
  const mutated = base.chain(({ event, payload }) => {
    const read = readPaths((INTAKE_READS as Record<string, unknown>)[event]);
    const all = pathsOf(payload);
    const path = fc.oneof(
      { weight: 3, arbitrary: fc.constantFrom(...read) },
      { weight: 1, arbitrary: fc.constantFrom(...all) },
    );
    return fc.array(fc.tuple(path, MUTATIONS), { minLength: 0, maxLength: 3 }).map((changes) => {
      let body: Json = payload;
      for (const [where, mutation] of changes) body = mutation.apply(body, where);
      return {
        event,
        body: renderJson(body),
        mutations: changes.map(([where, mutation]) => `${pathText(where)} ${mutation.name}`),
      };
    });
  });
  const odd = fc.oneof(
    fc.tuple(base, fc.constantFrom(...Object.keys(INTAKE_READS))).map(([{ payload }, event]) => ({
      event,
      body: JSON.stringify(payload),
      mutations: ['sent under another event name'],
    })),
    fc
      .tuple(
        fc.constantFrom(...Object.keys(INTAKE_READS)),
        fc.constantFrom('', 'null', '[]', '"x"', '{', 'nope', '1e999'),
      )
      .map(([event, body]) => ({ event, body, mutations: [`a body of ${JSON.stringify(body)}`] })),
  );
  return fc.oneof({ weight: 9, arbitrary: mutated }, { weight: 1, arbitrary: odd });
}
