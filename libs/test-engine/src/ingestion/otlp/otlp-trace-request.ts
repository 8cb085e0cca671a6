import { type INamespace, Root, type Type } from 'protobufjs';
import descriptor from './proto/otlp-trace.descriptor.json';

/** OTLP AnyValue as protobufjs's toObject gives it (longs as strings, bytes as base64). */
export interface OtlpAnyValue {
  stringValue?: string;
  boolValue?: boolean;
  intValue?: string;
  doubleValue?: number;
  arrayValue?: { values?: OtlpAnyValue[] };
  kvlistValue?: { values?: OtlpKeyValue[] };
  bytesValue?: string;
}

export interface OtlpKeyValue {
  key: string;
  value?: OtlpAnyValue;
}

export interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  startTimeUnixNano?: string;
  endTimeUnixNano?: string;
  attributes?: OtlpKeyValue[];
  status?: { code?: number; message?: string };
}

export interface OtlpScopeSpans {
  scope?: { name?: string; version?: string };
  spans?: OtlpSpan[];
}

export interface OtlpResourceSpans {
  resource?: { attributes?: OtlpKeyValue[] };
  scopeSpans?: OtlpScopeSpans[];
}

export interface OtlpTraceRequest {
  resourceSpans?: OtlpResourceSpans[];
}

const exportTraceServiceRequest: Type = Root.fromJSON(descriptor as INamespace).lookupType(
  'opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest',
);

/**
 * Decodes an OTLP/HTTP binary body with the official proto definitions (protobufjs over the
 * descriptor generated from opentelemetry-proto). Throws on anything that is not such a message.
 */
export function decodeOtlpTraceRequest(body: Uint8Array): OtlpTraceRequest {
  const message = exportTraceServiceRequest.decode(body);
  const problem = exportTraceServiceRequest.verify(message);
  if (problem) throw new Error(problem);
  const plain = exportTraceServiceRequest.toObject(message, {
    longs: String,
    bytes: String,
    defaults: false,
  });
  return plain as OtlpTraceRequest;
}
