import { Controller, Headers, HttpCode, HttpStatus, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { RouteConfig } from '@nestjs/platform-fastify';
import { ApiTags } from '@nestjs/swagger';
import { Auth } from '@switchyard/auth';
import { Body, Query, type RepositoryRef, RepositoryRefParam, ReadYourWrites } from '@switchyard/http';
import { badRequest } from '@switchyard/kernel';
import { UNKNOWN_JOB, UNKNOWN_PIPELINE } from '../domain/identity/test-identity';
import {
  type JunitRun,
  RecordTestUploadCommand,
  type UploadOutcome,
} from '../application/record-test-upload.handler';
import { junitXmlText } from '../ingestion/junit/junit-xml-text';
import { inflateUpload } from '../ingestion/upload-body';
import { JunitUploadQuery } from './dto/junit-upload.query';
import { ACCEPTS_TEST_UPLOADS } from './upload-body-parsers';

interface UploadJson {
  executions: number;
  recorded: boolean;
}

const json = (outcome: UploadOutcome): UploadJson => ({
  executions: outcome.executions,
  recorded: outcome.recorded,
});

/**
 * Test-result uploads: OTLP traces on the two paths the reporters use (ci-insights §1.1), and a
 * JUnit XML route of our own for CI systems without a reporter. A `ci` or `admin` key.
 */
@ApiTags('Test engine')
@Auth(['admin_key', 'ci_key'])
@Controller()
export class TestUploadController {
  constructor(private readonly commands: CommandBus) {}

  /** The Mergify CLI's path. Body: gzip(protobuf ExportTraceServiceRequest). */
  @ReadYourWrites()
  @Post('v1/repos/:owner/:repository/ci/traces')
  @RouteConfig(ACCEPTS_TEST_UPLOADS)
  @HttpCode(HttpStatus.OK)
  async cliTraces(
    @RepositoryRefParam() repository: RepositoryRef,
    @Body() body: unknown,
    @Headers('content-encoding') encoding?: string,
  ): Promise<UploadJson> {
    return json(await this.otlp(repository, bytesOf(body), encoding));
  }

  /** The native reporters' path (pytest, vitest, playwright, rspec). */
  @ReadYourWrites()
  @Post('v1/ci/:owner/repositories/:repository/traces')
  @RouteConfig(ACCEPTS_TEST_UPLOADS)
  @HttpCode(HttpStatus.OK)
  async reporterTraces(
    @RepositoryRefParam() repository: RepositoryRef,
    @Body() body: unknown,
    @Headers('content-encoding') encoding?: string,
  ): Promise<UploadJson> {
    return json(await this.otlp(repository, bytesOf(body), encoding));
  }

  /** A JUnit XML report (`application/xml`, gzipped or not); the run is described in the query. */
  @ReadYourWrites()
  @Post('v1/ci/:owner/repositories/:repository/junit')
  @RouteConfig(ACCEPTS_TEST_UPLOADS)
  @HttpCode(HttpStatus.OK)
  async junit(
    @RepositoryRefParam() repository: RepositoryRef,
    @Query() query: JunitUploadQuery,
    @Body() body: unknown,
    @Headers('content-encoding') encoding?: string,
  ): Promise<UploadJson> {
    const xml = junitXmlText(inflateUpload(bytesOf(body), encoding));
    const run: JunitRun = {
      pipelineName: query.pipeline_name ?? UNKNOWN_PIPELINE,
      jobName: query.job_name ?? UNKNOWN_JOB,
      commitSha: query.head_sha ?? null,
      headRef: query.branch?.replace(/^refs\/heads\//, '') ?? null,
      baseRef: query.base_branch ?? null,
      runId: query.run_id ?? null,
      runAttempt: query.run_attempt ?? null,
      runUrl: query.run_url ?? null,
      provider: query.provider ?? null,
      testRunId: null,
      framework: query.test_framework ?? null,
      frameworkVersion: query.test_framework_version ?? null,
      language: query.test_language ?? null,
    };
    return json(
      await this.commands.execute(new RecordTestUploadCommand(repository, { format: 'junit', xml, run })),
    );
  }

  private otlp(repository: RepositoryRef, body: Buffer, contentEncoding: string | undefined) {
    return this.commands.execute(
      new RecordTestUploadCommand(repository, { format: 'otlp', body, contentEncoding }),
    );
  }
}

function bytesOf(body: unknown): Buffer {
  if (Buffer.isBuffer(body)) return body;
  throw badRequest('Send the upload as application/x-protobuf (OTLP) or application/xml (JUnit)');
}
