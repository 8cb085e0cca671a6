import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { encodeOtlpTraceRequest, otlpAttribute } from '@switchyard/test-engine/testing/otlp-trace-body';
import { hostileString } from '../hostile-text';

export type UploadRoute = 'junit' | 'reporter' | 'cli';

/** One test-result upload: the route, its headers and the body bytes as sent. */
export interface FuzzUpload {
  route: UploadRoute;
  headers: Record<string, string>;
  body: Buffer;
  description: string;
}

/** Gzip bombs, built once: 64 MiB of zeros (64 KiB gzipped), and 256 MiB as four gzip members. */
let bombs: { zeros64: Buffer; zeros256: Buffer } | null = null;
const bomb = (size: 64 | 256): Buffer => {
  bombs ??= (() => {
    const zeros64 = gzipSync(Buffer.alloc(64 * 1024 * 1024));
    return { zeros64, zeros256: Buffer.concat([zeros64, zeros64, zeros64, zeros64]) };
  })();
  return size === 64 ? bombs.zeros64 : bombs.zeros256;
};

/** Text as an XML attribute would carry it, with what a hostile writer leaves unescaped now and then. */
const attribute = fc.oneof(
  { weight: 12, arbitrary: fc.stringMatching(/^[a-z_./:]{1,20}$/) },
  { weight: 2, arbitrary: hostileString.map((text) => text.replace(/[&<"]/g, '')) },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      'a&#0;b',
      '&#x0;',
      '&#xD800;',
      '&#55296;',
      '&#x1F600;',
      '&#65;',
      '&#x110000;',
      '&#99999999999;',
      '&#x000000000000;',
      '&amp;&lt;',
      '&undefined;',
    ),
  },
);

const testcase = fc
  .record({
    classname: attribute,
    name: attribute,
    outcome: fc.constantFrom('', '<failure message="m" type="t">trace</failure>', '<skipped/>', '<error/>'),
    time: fc.constantFrom('0.1', '-1', 'NaN', '1e309', ''),
  })
  .map(
    ({ classname, name, outcome, time }) =>
      `<testcase classname="${classname}" name="${name}" time="${time}">${outcome}</testcase>`,
  );

const junitDocument = fc.oneof(
  {
    weight: 6,
    arbitrary: fc
      .tuple(fc.array(testcase, { minLength: 0, maxLength: 6 }), fc.boolean())
      .map(([cases, wrapped]) => {
        const suite = `<testsuite name="fuzz" tests="${cases.length}">${cases.join('')}</testsuite>`;
        return wrapped ? `<testsuites>${suite}</testsuites>` : suite;
      }),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      // Entities defined by the document, nested: expansion must stay bounded.
      `<!DOCTYPE t [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;"><!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;">]><testsuite><testcase name="&c;"/></testsuite>`,
      `<!DOCTYPE t [<!ENTITY x SYSTEM "file:///etc/passwd">]><testsuite><testcase name="&x;"/></testsuite>`,
      `${'<testsuite>'.repeat(5_000)}<testcase name="deep"/>${'</testsuite>'.repeat(5_000)}`,
      `<testsuite>${'<testcase name="many"/>'.repeat(20_000)}</testsuite>`,
      '<testsuite><testcase name="unclosed">',
      'not xml at all',
      '',
    ),
  },
);

const xmlBytes = fc.oneof(
  {
    weight: 6,
    arbitrary: junitDocument.map((text) => ({ bytes: Buffer.from(text, 'utf8'), note: 'utf-8' })),
  },
  {
    weight: 1,
    arbitrary: junitDocument.map((text) => ({
      bytes: Buffer.concat([
        Buffer.from(text.slice(0, 30), 'utf8'),
        Buffer.from([0xc3, 0x28, 0xff]),
        Buffer.from(text.slice(30), 'utf8'),
      ]),
      note: 'invalid utf-8 inside',
    })),
  },
  {
    weight: 1,
    arbitrary: fc
      .tuple(junitDocument, fc.constantFrom('ISO-8859-1', 'UTF-16', 'klingon', 'utf-8'))
      .map(([text, encoding]) => ({
        bytes: Buffer.from(`<?xml version="1.0" encoding="${encoding}"?>${text}`, 'latin1'),
        note: `declared ${encoding}`,
      })),
  },
);

const span = fc.record({
  name: fc.oneof(
    { weight: 4, arbitrary: fc.stringMatching(/^tests\/test_[a-z]{1,8}\.py::test_[a-z]{1,8}$/) },
    { weight: 1, arbitrary: hostileString },
  ),
  status: fc.constantFrom('passed', 'failed', 'skipped', 'odd'),
  message: hostileString,
});

const otlpBytes = fc.oneof(
  {
    weight: 5,
    arbitrary: fc
      .tuple(
        fc.array(span, { minLength: 0, maxLength: 5 }),
        fc.constantFrom('ci', '', '\u0000', 'x'.repeat(300)),
        fc.constantFrom('main', 'feature', '\ud800'),
        fc.nat(1_000_000),
      )
      .map(([spans, pipeline, branch, seed]) => ({
        bytes: Buffer.from(
          encodeOtlpTraceRequest({
            resourceSpans: [
              {
                resource: {
                  attributes: [
                    otlpAttribute('cicd.pipeline.name', pipeline),
                    otlpAttribute('vcs.ref.head.name', branch),
                  ],
                },
                scopeSpans: [
                  {
                    spans: spans.map((s, i) => ({
                      traceId: Buffer.alloc(16, seed % 251),
                      spanId: Buffer.from([0, 0, 0, 0, 0, 0, i + 1, seed % 256]),
                      name: s.name,
                      startTimeUnixNano: '1770000000000000000',
                      endTimeUnixNano: '1770000000100000000',
                      attributes: [
                        otlpAttribute('test.scope', 'case'),
                        otlpAttribute('test.case.result.status', s.status),
                        otlpAttribute('exception.message', s.message),
                      ],
                    })),
                  },
                ],
              },
            ],
          }),
        ),
        note: `OTLP of ${spans.length} spans`,
      })),
  },
  {
    weight: 1,
    arbitrary: fc
      .uint8Array({ maxLength: 200 })
      .map((bytes) => ({ bytes: Buffer.from(bytes), note: 'random bytes' })),
  },
);

/** How the body goes on the wire: as it is, gzipped, or a bomb or a lie instead. */
const wire = (body: { bytes: Buffer; note: string }) =>
  fc.oneof(
    { weight: 3, arbitrary: fc.constant({ encoding: null, bytes: body.bytes, note: body.note }) },
    {
      weight: 3,
      arbitrary: fc.constant({
        encoding: 'gzip',
        bytes: gzipSync(body.bytes),
        note: `${body.note}, gzipped`,
      }),
    },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        { encoding: null, bytes: gzipSync(body.bytes), note: `${body.note}, gzipped without saying so` },
        { encoding: 'gzip', bytes: body.bytes, note: `${body.note}, said gzipped but not` },
        { encoding: 'gzip', bytes: gzipSync(gzipSync(body.bytes)), note: `${body.note}, gzipped twice` },
        { encoding: 'br', bytes: body.bytes, note: `${body.note}, said br` },
        {
          encoding: 'gzip',
          bytes: gzipSync(body.bytes).subarray(0, 12),
          note: `${body.note}, gzip cut short`,
        },
      ),
    },
  );

const bombUpload = fc.constantFrom(64 as const, 256 as const).map((size) => ({
  encoding: 'gzip',
  get bytes() {
    return bomb(size);
  },
  note: `${size} MiB of zeros, gzipped`,
}));

/**
 * Uploads to the three test-result routes: JUnit reports with hostile names, character references
 * XML forbids, entities, deep nesting, bytes that are not in the declared encoding; OTLP requests
 * with hostile names and messages, random bytes; gzipped, doubly gzipped, cut short, or
 * compression bombs of 64 and 256 MiB of zeros; content types and codings that lie.
 */
export function uploads(): fc.Arbitrary<FuzzUpload> {
  const junit = fc
    .tuple(
      xmlBytes.chain((body) =>
        fc.oneof({ weight: 6, arbitrary: wire(body) }, { weight: 1, arbitrary: bombUpload }),
      ),
    )
    .map(([sent]) => ({ route: 'junit' as const, contentType: 'application/xml', sent }));
  const otlp = fc
    .tuple(
      fc.constantFrom<UploadRoute>('reporter', 'cli'),
      otlpBytes.chain((body) =>
        fc.oneof({ weight: 6, arbitrary: wire(body) }, { weight: 1, arbitrary: bombUpload }),
      ),
    )
    .map(([route, sent]) => ({ route, contentType: 'application/x-protobuf', sent }));
  return fc
    .tuple(fc.oneof(junit, otlp), fc.constantFrom(null, 'application/json', 'text/plain'), fc.nat(9))
    .map(([{ route, contentType, sent }, otherType, roll]) => {
      const type = roll === 0 && otherType ? otherType : contentType;
      return {
        route,
        headers: { 'content-type': type, ...(sent.encoding ? { 'content-encoding': sent.encoding } : {}) },
        get body() {
          return sent.bytes;
        },
        description: `${route} [${type}] ${sent.note}`,
      };
    });
}
