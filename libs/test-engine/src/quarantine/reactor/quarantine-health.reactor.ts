import type { RecordedEvent } from '@switchyard/event-store';
import {
  untilReadModelsInclude,
  type ReactionContext,
  type ReadModelFreshness,
  type Reactor,
} from '@switchyard/projection';
import type { SqlQueryable } from '@switchyard/sql';
import { uuid5 } from '../../domain/identity/uuid5';
import { testIdOf } from '../../domain/identity/test-identity';
import { executionColumnsOf } from '../../domain/upload/execution-columns';
import { ranOnDefaultBranch } from '../../domain/upload/test-results';
import type { TestResultsRecorded } from '../../domain/upload/test-upload';
import { readUnhealthyTestsOnDefaultBranch, TEST_RESULTS_READ_MODELS } from '../../queries/current-health';
import type { ReadTestHealth } from '../application/test-health.port';
import {
  type ApplyTestHealth,
  type AutoQuarantineEnabled,
  type AutoQuarantineModified,
  type TestHealthUpdate,
  testQuarantineStreamId,
} from '../domain/test-quarantine';
import { quarantineCommandDecider } from '../application/test-quarantine.snapshots';
import { QUARANTINE_READ_MODELS } from '../application/read-models';
import {
  autoQuarantineSettings,
  awaitsRecovery,
  listActiveQuarantines,
} from '../projection/test-quarantine.read-model';

/** Namespace of automatic quarantine ids: uuid5 of the source event id, test, pipeline and job. */
export const AUTO_QUARANTINE_ID_NAMESPACE = '2b7e64c1-8d3f-4a5e-9c10-7f4b2d8e6a93';

export interface QuarantineHealthReactorDeps {
  sql: SqlQueryable;
  /** Health must include the upload before it is read; a wait that times out retries the event. */
  freshness: ReadModelFreshness;
  readHealth: ReadTestHealth;
}

/** A wait for the read models that outlasts this is a stuck processor: fail so the runner retries. */
const READ_MODEL_WAIT_MS = 60_000;

/**
 * Default-branch uploads change tests' health; this reactor hands each changed test's health per
 * identity to the repository's quarantine decider, which lifts recovered quarantines that asked
 * for it (`unquarantine_when_healthy`, source auto) and, with auto-quarantine on, quarantines
 * unhealthy identities. It reads only tests that can matter: those of the upload with an active
 * quarantine waiting to recover, and, when auto-quarantine is on, those now unhealthy. Switching
 * auto-quarantine on (or widening it to broken tests) applies it at once to every test unhealthy on
 * the default branch. Each reaction issues at most one command, so a reaction redone after a crash
 * issues it under the same key and the store keeps one copy.
 */
export function createQuarantineHealthReactor(deps: QuarantineHealthReactorDeps): Reactor {
  async function applyHealth(
    event: RecordedEvent,
    context: ReactionContext,
    repository: string,
    candidates: readonly string[],
    at: string,
  ): Promise<void> {
    const readModels = [...TEST_RESULTS_READ_MODELS, ...QUARANTINE_READ_MODELS];
    await untilReadModelsInclude(deps.freshness, readModels, event.position, READ_MODEL_WAIT_MS);
    // Most repositories have neither: an upload's thousand names are then not even sent.
    const autoOn = (await autoQuarantineSettings(deps.sql, repository)).enabled;
    if (!autoOn && !(await awaitsRecovery(deps.sql, repository))) return;
    const testNames = [...new Set(candidates)].sort();
    const waiting = new Set(
      (await listActiveQuarantines(deps.sql, repository, { testNames }))
        .filter((quarantine) => quarantine.unquarantineWhenHealthy)
        .map((quarantine) => quarantine.testName),
    );
    if (waiting.size === 0 && !autoOn) return;
    const health = await deps.readHealth(deps.sql, repository, autoOn ? testNames : [...waiting]);
    const tests: TestHealthUpdate[] = testNames
      .map((testName) => ({ testName, identities: health.get(testName) ?? [] }))
      .filter(
        ({ testName, identities }) =>
          waiting.has(testName) || (autoOn && identities.some((identity) => identity.health !== 'healthy')),
      )
      .map(({ testName, identities }) => ({
        testName,
        testId: testIdOf(repository, testName),
        identities,
        autoQuarantineIds: identities.map((identity) =>
          uuid5(
            `${event.eventId}\n${testName}\n${identity.pipelineName}\n${identity.jobName}`,
            AUTO_QUARANTINE_ID_NAMESPACE,
          ),
        ),
      }));
    if (tests.length === 0) return;
    // One command per reaction: its idempotency key is then the same on a rerun whatever the
    // health read then, so a crash can neither record it twice nor skip it.
    const command: ApplyTestHealth = { type: 'ApplyTestHealth', repository, tests, at: new Date(at) };
    await context.issue(testQuarantineStreamId(repository), quarantineCommandDecider, command);
  }

  return {
    name: 'test_engine.quarantine_health',
    eventTypes: [
      'test_results.recorded',
      'test_quarantine.auto_quarantine_enabled',
      'test_quarantine.auto_quarantine_modified',
    ],
    async react(event, context) {
      if (event.type === 'test_results.recorded') {
        const { repository, run, executions, receivedAt } = (event as RecordedEvent<TestResultsRecorded>)
          .data;
        if (!ranOnDefaultBranch(run)) return;
        const { testName: testNames } = executionColumnsOf(executions);
        await applyHealth(event, context, repository, testNames, receivedAt);
        return;
      }
      const { repository, at } = event.data as AutoQuarantineEnabled['data'] | AutoQuarantineModified['data'];
      const unhealthy = await readUnhealthyTestsOnDefaultBranch(deps.sql, repository);
      await applyHealth(
        event,
        context,
        repository,
        unhealthy.map((test) => test.testName),
        at,
      );
    },
  };
}
