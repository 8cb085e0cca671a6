import { type INamespace, type Long, Root, type Type } from 'protobufjs';
import descriptor from './proto/otlp-trace.descriptor.json';

/** A 64-bit integer as protobufjs decodes it: two 32-bit halves, or a number when `long` is absent. */
export type OtlpLong = Long | number;

/**
 * OTLP AnyValue as decoded: every member reads as its default when unset, so `value`, the name of
 * the member that is set (protobufjs's virtual oneof field), says which one to read.
 */
export interface OtlpAnyValue {
  value?: string;
  stringValue: string;
  boolValue: boolean;
  intValue: OtlpLong;
  doubleValue: number;
}

export interface OtlpKeyValue {
  key: string;
  value?: OtlpAnyValue | null;
}

export interface OtlpSpan {
  traceId: Uint8Array;
  spanId: Uint8Array;
  name: string;
  startTimeUnixNano: OtlpLong;
  endTimeUnixNano: OtlpLong;
  attributes: OtlpKeyValue[];
  status?: { code: number; message: string } | null;
}

export interface OtlpScopeSpans {
  scope?: { name: string } | null;
  spans: OtlpSpan[];
}

export interface OtlpResourceSpans {
  resource?: { attributes: OtlpKeyValue[] } | null;
  scopeSpans: OtlpScopeSpans[];
}

export interface OtlpTraceRequest {
  resourceSpans: OtlpResourceSpans[];
}

/** The message type, from the descriptor generated off opentelemetry-proto. */
export const exportTraceServiceRequest: Type = Root.fromJSON(descriptor as INamespace).lookupType(
  'opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest',
);

/**
 * Decodes an OTLP/HTTP binary body with the official proto definitions (protobufjs over the
 * descriptor generated from opentelemetry-proto). Throws on anything that is not such a message.
 * The decoded message is read as it is: a plain-object copy (toObject) turned every id into base64
 * and every timestamp into a string, a large share of an upload's decoding time and garbage.
 */
export function decodeOtlpTraceRequest(body: Uint8Array): OtlpTraceRequest {
  return exportTraceServiceRequest.decode(body) as unknown as OtlpTraceRequest;
}
