import { Inject, Injectable } from '@nestjs/common';
import type { CommandService } from '@switchyard/event-store/application';
import type { Clock } from '@switchyard/kernel';
import { CLOCK, COMMAND_SERVICE, READ_MODEL_FRESHNESS } from '@switchyard/platform';
import { readYourWrite, type ReadModelFreshness } from '@switchyard/projection';
import { executionCount, type RunColumns, toRunColumns } from '../domain/upload/execution-columns';
import type { RunContext } from '../domain/upload/test-results';
import { testUploadDecider, testUploadStreamId } from '../domain/upload/test-upload.decider';
import type { UploadSource } from '../domain/upload/test-upload.events';
import { junitToTestResults } from '../ingestion/junit/junit-to-test-results';
import { uploadIdOf } from '../ingestion/upload-id';
import { inflateUpload } from '../ingestion/upload-body';
import { TEST_RESULTS_READ_MODELS } from '../queries/current-health';
import { DefaultBranches } from './default-branch';
import { OtlpUploadReader } from './otlp-upload-reader';

export interface UploadOutcome {
  executions: number;
  /** False when this very upload had been recorded before (nothing was appended now). */
  recorded: boolean;
}

export type JunitRun = Omit<RunContext, 'defaultBranch'>;

interface Repository {
  owner: string;
  repository: string;
  key: string;
}

/**
 * Test-result uploads to events. A malformed body is refused before anything is appended; the
 * answer comes once the test read models include the upload (read-your-writes).
 */
@Injectable()
export class TestUploadService {
  constructor(
    @Inject(COMMAND_SERVICE) private readonly commands: CommandService,
    @Inject(READ_MODEL_FRESHNESS) private readonly freshness: ReadModelFreshness,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly defaultBranches: DefaultBranches,
    private readonly otlpReader: OtlpUploadReader,
  ) {}

  async recordOtlp(
    repository: Repository,
    body: Buffer,
    contentEncoding: string | undefined,
  ): Promise<UploadOutcome> {
    const receivedAt = this.clock.now().toISOString();
    const defaultBranch = await this.defaultBranches.of(repository);
    const { runs, uploadId } = await this.otlpReader.read({
      repository: repository.key,
      body,
      contentEncoding,
      defaultBranch,
      receivedAt,
    });
    return this.record(repository.key, 'otlp', uploadId, receivedAt, runs);
  }

  /** Exposed for the JUnit route, whose body is text once inflated. */
  inflate(body: Buffer, contentEncoding: string | undefined): Buffer {
    return inflateUpload(body, contentEncoding);
  }

  async recordJunit(repository: Repository, xml: string, run: JunitRun): Promise<UploadOutcome> {
    const receivedAt = this.clock.now().toISOString();
    const defaultBranch = await this.defaultBranches.of(repository);
    const context: RunContext = { ...run, defaultBranch };
    const runs = toRunColumns(junitToTestResults(xml, context, receivedAt));
    const id = uploadIdOf(repository.key, Buffer.from(`${JSON.stringify(run)}\n${xml}`));
    return this.record(repository.key, 'junit', id, receivedAt, runs);
  }

  private async record(
    repository: string,
    source: UploadSource,
    uploadId: string,
    receivedAt: string,
    runs: RunColumns[],
  ): Promise<UploadOutcome> {
    const executions = runs.reduce((sum, run) => sum + executionCount(run.executions), 0);
    if (executions === 0) return { executions: 0, recorded: false };
    const outcome = await readYourWrite(this.freshness, TEST_RESULTS_READ_MODELS, () =>
      this.commands.handle(testUploadStreamId(uploadId), testUploadDecider, {
        type: 'RecordTestResults',
        repository,
        uploadId,
        source,
        receivedAt,
        runs,
      }),
    );
    return { executions, recorded: outcome.events.length > 0 };
  }
}
