import { Module, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { CqrsModule } from '@nestjs/cqrs';
import { CodeHostModule } from '@switchyard/code-host/nest';
import type { FastifyInstance } from 'fastify';
import { DefaultBranches } from './application/default-branch';
import { TestInsightsService } from './application/test-insights.service';
import { OtlpUploadReader } from './application/otlp-upload-reader';
import { RecordTestUploadHandler } from './application/record-test-upload.handler';
import { TestInsightsController } from './http/test-insights.controller';
import { TestUploadController } from './http/test-upload.controller';
import { registerUploadBodyParsers } from './http/upload-body-parsers';

/**
 * Test-result uploads and test insights reads. Needs the platform tokens (COMMAND_SERVICE,
 * READ_MODEL_FRESHNESS, SQL_EXECUTOR, CLOCK), the code host (default branches), and the app
 * registering testEngineProjections.
 */
@Module({
  // CODE_HOST: each repository's default branch (the default-branch rule of docs/test-health.md).
  imports: [CodeHostModule, CqrsModule],
  controllers: [TestUploadController, TestInsightsController],
  providers: [RecordTestUploadHandler, TestInsightsService, DefaultBranches, OtlpUploadReader],
})
export class TestEngineModule implements OnModuleInit {
  constructor(private readonly adapter: HttpAdapterHost) {}

  onModuleInit(): void {
    registerUploadBodyParsers(this.adapter.httpAdapter.getInstance<FastifyInstance>());
  }
}
