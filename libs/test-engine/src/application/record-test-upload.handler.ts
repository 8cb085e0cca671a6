import { Inject } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { CommandService } from '@switchyard/event-store/application';
import type { Clock } from '@switchyard/kernel';
import { CLOCK, COMMAND_SERVICE, READ_MODEL_FRESHNESS } from '@switchyard/platform';
import { readYourWrite, type ReadModelFreshness } from '@switchyard/projection';
import { executionCount, type RunColumns, toRunColumns } from '../domain/upload/execution-columns';
import type { RunContext } from '../domain/upload/test-results';
import { testUploadDecider, testUploadStreamId, type UploadSource } from '../domain/upload/test-upload';
import { junitToTestResults } from '../ingestion/junit/junit-to-test-results';
import { uploadIdOf } from '../ingestion/upload-id';
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

/** The upload as it came through the door: OTLP bytes as sent, or JUnit XML as text. */
export type TestUpload =
  | { format: 'otlp'; body: Buffer; contentEncoding: string | undefined }
  | { format: 'junit'; xml: string; run: JunitRun };

/** POST ci/traces, traces (OTLP) and junit (JUnit XML). */
export class RecordTestUploadCommand extends Command<UploadOutcome> {
  constructor(
    readonly repository: Repository,
    readonly upload: TestUpload,
  ) {
    super();
  }
}

/**
 * Test-result uploads to events. A malformed body is refused before anything is appended; the
 * answer comes once the test read models include the upload (read-your-writes).
 */
@CommandHandler(RecordTestUploadCommand)
export class RecordTestUploadHandler implements ICommandHandler<RecordTestUploadCommand, UploadOutcome> {
  constructor(
    @Inject(COMMAND_SERVICE) private readonly commands: CommandService,
    @Inject(READ_MODEL_FRESHNESS) private readonly freshness: ReadModelFreshness,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly defaultBranches: DefaultBranches,
    private readonly otlpReader: OtlpUploadReader,
  ) {}

  execute({ repository, upload }: RecordTestUploadCommand): Promise<UploadOutcome> {
    return upload.format === 'otlp'
      ? this.recordOtlp(repository, upload.body, upload.contentEncoding)
      : this.recordJunit(repository, upload.xml, upload.run);
  }

  private async recordOtlp(
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

  private async recordJunit(repository: Repository, xml: string, run: JunitRun): Promise<UploadOutcome> {
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
