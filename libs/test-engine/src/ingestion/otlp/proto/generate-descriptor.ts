/*
 * Regenerates otlp-trace.descriptor.json from the official OpenTelemetry .proto files beside it
 * (open-telemetry/opentelemetry-proto v1.11.0+16, Apache-2.0, LICENSE beside them). The JSON
 * descriptor ships with the build (tsc emits imported JSON), so production needs no .proto files:
 *   node -r @swc-node/register libs/test-engine/src/ingestion/otlp/proto/generate-descriptor.ts
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Root } from 'protobufjs';

const here = __dirname;
const root = new Root();
root.resolvePath = (_origin, target) => join(here, target);
root.loadSync('opentelemetry/proto/collector/trace/v1/trace_service.proto', { keepCase: false });
writeFileSync(join(here, 'otlp-trace.descriptor.json'), `${JSON.stringify(root.toJSON(), null, 1)}\n`);
