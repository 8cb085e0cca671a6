import { availableParallelism } from 'node:os';
import { extname, join } from 'node:path';
import { Injectable, type OnModuleDestroy } from '@nestjs/common';
import { Piscina } from 'piscina';
import {
  type OtlpUploadReading,
  type OtlpUploadRequest,
  readOtlpUpload,
} from '../ingestion/otlp/read-otlp-upload';
import { readingOf, type WorkerAnswer } from '../ingestion/otlp/read-otlp-upload.worker';

/**
 * Below this many bytes on the wire an upload is read on the event loop: the hop to a worker and
 * back costs more than decoding it.
 */
export const WORKER_UPLOAD_BYTES = 8 * 1024;

/**
 * Reads OTLP uploads (inflate, protobuf decode, mapping: several milliseconds for a thousand
 * tests) on a worker thread, so the event loop stays free for the requests and projections that
 * share it: a reporter's upload no longer holds up every other statement's answer for that long.
 */
@Injectable()
export class OtlpUploadReader implements OnModuleDestroy {
  private pool: Piscina | null = null;

  async read(request: OtlpUploadRequest): Promise<OtlpUploadReading> {
    if (request.body.byteLength < WORKER_UPLOAD_BYTES) return readOtlpUpload(request);
    return readingOf((await this.workers().run(request)) as WorkerAnswer);
  }

  async onModuleDestroy(): Promise<void> {
    await this.pool?.destroy();
    this.pool = null;
  }

  /** Started on the first large upload; one thread less than the machine has, at least one. */
  private workers(): Piscina {
    const source = extname(__filename);
    this.pool ??= new Piscina({
      filename: join(__dirname, '..', 'ingestion', 'otlp', `read-otlp-upload.worker${source}`),
      maxThreads: Math.max(1, availableParallelism() - 1),
      minThreads: 0,
      idleTimeout: 60_000,
      // From TypeScript sources (npm test, the benches) the worker compiles them as the process does.
      execArgv: source === '.ts' ? ['-r', '@swc-node/register'] : [],
    });
    return this.pool;
  }
}
