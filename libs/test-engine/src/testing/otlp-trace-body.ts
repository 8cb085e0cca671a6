import { type INamespace, Root } from 'protobufjs';
import descriptor from '../ingestion/otlp/proto/otlp-trace.descriptor.json';

const requestType = Root.fromJSON(descriptor as INamespace).lookupType(
  'opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest',
);

/** An ExportTraceServiceRequest in protobuf, from its plain-object form (ids as bytes). */
export const encodeOtlpTraceRequest = (request: object): Uint8Array =>
  requestType.encode(requestType.fromObject(request)).finish();

/** A string or boolean attribute as OTLP carries it. */
export const otlpAttribute = (key: string, value: string | boolean) => ({
  key,
  value: typeof value === 'boolean' ? { boolValue: value } : { stringValue: value },
});
