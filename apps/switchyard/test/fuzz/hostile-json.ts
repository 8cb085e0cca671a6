import fc from 'fast-check';
import { hostileString, oddNumberText } from './hostile-text';

/** JSON text spliced in as it is: numbers JS cannot hold, and nesting too deep to build as objects. */
export class RawJson {
  constructor(readonly text: string) {}
}

/** A request body: JSON text (or anything else) and the content type it is sent with. */
export interface BodyText {
  text: string;
  contentType: string;
}

/** JSON.stringify, except that RawJson leaves are written verbatim. */
export function renderJson(value: unknown): string {
  if (value instanceof RawJson) return value.text;
  if (Array.isArray(value)) return `[${value.map(renderJson).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const members = Object.entries(value).map(([key, item]) => `${JSON.stringify(key)}:${renderJson(item)}`);
    return `{${members.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** Arrays or objects nested `depth` deep around `inner`; around the body-parser limit and far past it. */
export const deeplyNested: fc.Arbitrary<RawJson> = fc
  .tuple(
    fc.oneof(fc.integer({ min: 60, max: 70 }), fc.constantFrom(1_000, 10_000, 100_000)),
    fc.constantFrom('[', '{"and":', '{"a":['),
    fc.boolean(),
  )
  .map(([depth, open, closed]) => {
    const close = open === '[' ? ']' : open === '{"and":' ? '}' : ']}';
    return new RawJson(open.repeat(depth) + '"x"' + (closed ? close.repeat(depth) : ''));
  });

export const jsonLeaf: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: hostileString },
  { weight: 2, arbitrary: oddNumberText.map((text) => new RawJson(text)) },
  { weight: 1, arbitrary: fc.double() },
  { weight: 1, arbitrary: fc.integer() },
  { weight: 1, arbitrary: fc.boolean() },
  { weight: 1, arbitrary: fc.constant(null) },
);

/** Any JSON value built from hostile leaves, a few levels deep. */
export const anyJson: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    jsonLeaf,
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(hostileString, tie('value'), { maxKeys: 4 }),
  ),
})).value;

/** A field's value: mostly a plausible one, sometimes anything at all. */
export const fieldValue = (plausible: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> =>
  fc.oneof(
    { weight: 6, arbitrary: plausible },
    { weight: 2, arbitrary: jsonLeaf },
    { weight: 1, arbitrary: anyJson },
    { weight: 1, arbitrary: deeplyNested },
  );

/**
 * A valid-ish object: each field of `shape` present (plausible or mutated) or left out, plus the
 * odd unknown key; validation has to look at every field of it.
 */
export const objectLike = (shape: Record<string, fc.Arbitrary<unknown>>): fc.Arbitrary<unknown> =>
  fc
    .tuple(
      fc.record(
        Object.fromEntries(Object.entries(shape).map(([key, plausible]) => [key, fieldValue(plausible)])),
        { requiredKeys: [] },
      ),
      fc.dictionary(hostileString, jsonLeaf, { maxKeys: 2 }),
      fc.nat(9),
    )
    .map(([fields, extra, roll]) => (roll === 0 ? { ...extra, ...fields } : fields));

const JSON_TYPE = 'application/json';

/**
 * Bodies for an endpoint whose valid body looks like `shape`: mostly shaped like it, else any JSON,
 * deep nesting, malformed text, or a content type the app does not parse.
 */
export const bodyLike = (shape: Record<string, fc.Arbitrary<unknown>>): fc.Arbitrary<BodyText | undefined> =>
  fc.oneof(
    {
      weight: 8,
      arbitrary: objectLike(shape).map((value) => ({ text: renderJson(value), contentType: JSON_TYPE })),
    },
    { weight: 2, arbitrary: anyJson.map((value) => ({ text: renderJson(value), contentType: JSON_TYPE })) },
    { weight: 1, arbitrary: deeplyNested.map((value) => ({ text: value.text, contentType: JSON_TYPE })) },
    {
      weight: 1,
      arbitrary: fc
        .string({ unit: 'binary', maxLength: 30 })
        .map((text) => ({ text, contentType: JSON_TYPE })),
    },
    {
      weight: 1,
      arbitrary: fc.record({
        text: fc.constantFrom('', '{}', 'reason=x', '\u0000'),
        contentType: fc.constantFrom(
          'text/plain',
          'application/x-www-form-urlencoded',
          'application/json; charset=latin1',
          'application/json; charset=utf-8',
          'multipart/form-data; boundary=x',
        ),
      }),
    },
    { weight: 1, arbitrary: fc.constant(undefined) },
  );

/** For endpoints that take no body: usually none, sometimes one anyway. */
export const strayBody: fc.Arbitrary<BodyText | undefined> = fc.oneof(
  { weight: 4, arbitrary: fc.constant(undefined) },
  { weight: 1, arbitrary: bodyLike({}) },
);
