import { exportTraceServiceRequest as requestType } from '../ingestion/otlp/otlp-trace-request';

/** An ExportTraceServiceRequest in protobuf, from its plain-object form (ids as bytes). */
export const encodeOtlpTraceRequest = (request: object): Uint8Array =>
  requestType.encode(requestType.fromObject(request)).finish();

/** A string or boolean attribute as OTLP carries it. */
export const otlpAttribute = (key: string, value: string | boolean) => ({
  key,
  value: typeof value === 'boolean' ? { boolValue: value } : { stringValue: value },
});
