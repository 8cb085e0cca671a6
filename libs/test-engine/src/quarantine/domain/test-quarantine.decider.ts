import { checkStorableString, conflict, type Decider, notFound } from '@switchyard/kernel';
import { autoQuarantineReason, autoQuarantines } from './auto-quarantine-policy';
import { coversIdentity, sameScope, scopeHealth } from './quarantine-scope';
import type {
  ApplyTestHealth,
  ConfigureAutoQuarantine,
  DequarantineTest,
  QuarantineTest,
  TestHealthUpdate,
  TestQuarantineCommand,
} from './test-quarantine.commands';
import {
  alreadyQuarantinedMessage,
  QUARANTINE_NOT_FOUND_MESSAGE,
  QUARANTINE_TEXT_MAX_CODE_POINTS,
} from './test-quarantine.errors';
import type {
  AutoQuarantineSettings,
  QuarantineRecord,
  TestDequarantined,
  TestQuarantined,
  TestQuarantineEvent,
} from './test-quarantine.events';

export type ActiveQuarantine = QuarantineRecord & { createdAt: string };

/**
 * A repository's active quarantines by id (a plain object, so the state snapshots as JSON) and its
 * auto-quarantine switch. A lifted quarantine leaves the state: addressing it again is a 404.
 */
export interface TestQuarantineState {
  active: Readonly<Record<string, ActiveQuarantine>>;
  autoQuarantine: (AutoQuarantineSettings & { enabled: boolean }) | null;
}

const activeOf = (state: TestQuarantineState): ActiveQuarantine[] => Object.values(state.active);

function quarantine(command: QuarantineTest, state: TestQuarantineState): TestQuarantineEvent[] {
  checkStorableString('test_name', command.testName, QUARANTINE_TEXT_MAX_CODE_POINTS);
  checkStorableString('reason', command.reason, QUARANTINE_TEXT_MAX_CODE_POINTS);
  if (command.branch !== null) checkStorableString('branch', command.branch, QUARANTINE_TEXT_MAX_CODE_POINTS);
  const scope = { branch: command.branch, pipelineName: null, jobName: null };
  if (activeOf(state).some((q) => q.testName === command.testName && sameScope(q, scope))) {
    throw conflict(alreadyQuarantinedMessage(command.testName));
  }
  if (state.active[command.quarantineId]) throw conflict('A quarantine with this id already exists');
  return [
    quarantined(
      {
        quarantineId: command.quarantineId,
        testName: command.testName,
        testId: command.testId,
        reason: command.reason,
        ...scope,
        source: 'manual',
        unquarantineWhenHealthy: command.unquarantineWhenHealthy,
        healthAtEvent: command.health,
      },
      command.repository,
      command.actor,
      command.at,
    ),
  ];
}

function dequarantine(command: DequarantineTest, state: TestQuarantineState): TestQuarantineEvent[] {
  const original = state.active[command.quarantineId];
  if (!original) throw notFound(QUARANTINE_NOT_FOUND_MESSAGE);
  return [
    dequarantined(original, command.repository, 'manual', command.identities, command.actor, command.at),
  ];
}

function configure(command: ConfigureAutoQuarantine, state: TestQuarantineState): TestQuarantineEvent[] {
  const { repository, actor } = command;
  const at = command.at.toISOString();
  const settings = { ignoreBrokenOnDefaultBranch: command.ignoreBrokenOnDefaultBranch };
  const current = state.autoQuarantine;
  if (!current?.enabled) {
    if (!command.enabled) return [];
    return [{ type: 'test_quarantine.auto_quarantine_enabled', data: { repository, settings, actor, at } }];
  }
  const before = { ignoreBrokenOnDefaultBranch: current.ignoreBrokenOnDefaultBranch };
  if (!command.enabled) {
    return [
      { type: 'test_quarantine.auto_quarantine_disabled', data: { repository, settings: before, actor, at } },
    ];
  }
  if (before.ignoreBrokenOnDefaultBranch === settings.ignoreBrokenOnDefaultBranch) return [];
  return [
    {
      type: 'test_quarantine.auto_quarantine_modified',
      data: { repository, before, after: settings, actor, at },
    },
  ];
}

/**
 * Recovered quarantines that asked for it are lifted; with auto-quarantine on, each unhealthy
 * identity not already covered on every branch gets an automatic quarantine of its own pipeline
 * and job.
 */
function applyHealth(command: ApplyTestHealth, state: TestQuarantineState): TestQuarantineEvent[] {
  return command.tests.flatMap((test) => applyTestHealth(test, command, state));
}

function applyTestHealth(
  test: TestHealthUpdate,
  command: ApplyTestHealth,
  state: TestQuarantineState,
): TestQuarantineEvent[] {
  const { repository } = command;
  const { identities } = test;
  const ofTest = activeOf(state).filter((q) => q.testName === test.testName);
  const recovered = ofTest.filter(
    (q) => q.unquarantineWhenHealthy && scopeHealth(q, identities) === 'healthy',
  );
  const events: TestQuarantineEvent[] = recovered.map((q) =>
    dequarantined(q, repository, 'auto', identities, null, command.at),
  );
  const lifted = new Set(recovered.map((q) => q.quarantineId));
  const settings = state.autoQuarantine;
  if (!settings?.enabled) return events;

  identities.forEach((identity, index) => {
    if (!autoQuarantines(identity.health, settings)) return;
    const covered = ofTest.some(
      (q) => !lifted.has(q.quarantineId) && q.branch === null && coversIdentity(q, identity),
    );
    const quarantineId = test.autoQuarantineIds[index];
    if (covered || quarantineId === undefined || state.active[quarantineId]) return;
    events.push(
      quarantined(
        {
          quarantineId,
          testName: test.testName,
          testId: test.testId,
          reason: autoQuarantineReason(identity.health),
          branch: null,
          pipelineName: identity.pipelineName,
          jobName: identity.jobName,
          source: 'auto',
          // Automatic quarantines end on their own, as they began.
          unquarantineWhenHealthy: true,
          healthAtEvent: identity.health,
        },
        repository,
        null,
        command.at,
      ),
    );
  });
  return events;
}

const quarantined = (
  record: QuarantineRecord,
  repository: string,
  actor: TestQuarantined['data']['actor'],
  at: Date,
): TestQuarantined => ({
  type: 'test_quarantine.quarantined',
  data: { ...record, repository, actor, at: at.toISOString() },
});

function dequarantined(
  original: ActiveQuarantine,
  repository: string,
  source: TestDequarantined['data']['source'],
  identities: TestHealthUpdate['identities'],
  actor: TestDequarantined['data']['actor'],
  at: Date,
): TestDequarantined {
  return {
    type: 'test_quarantine.dequarantined',
    data: {
      quarantineId: original.quarantineId,
      repository,
      source,
      original,
      healthAtEvent: scopeHealth(original, identities),
      actor,
      at: at.toISOString(),
    },
  };
}

export const testQuarantineDecider: Decider<TestQuarantineState, TestQuarantineCommand, TestQuarantineEvent> =
  {
    initialState: () => ({ active: {}, autoQuarantine: null }),

    decide(command, state) {
      switch (command.type) {
        case 'QuarantineTest':
          return quarantine(command, state);
        case 'DequarantineTest':
          return dequarantine(command, state);
        case 'ConfigureAutoQuarantine':
          return configure(command, state);
        case 'ApplyTestHealth':
          return applyHealth(command, state);
      }
    },

    evolve(state, event) {
      switch (event.type) {
        case 'test_quarantine.quarantined': {
          const { repository: _repository, actor: _actor, at, ...record } = event.data;
          return {
            ...state,
            active: { ...state.active, [record.quarantineId]: { ...record, createdAt: at } },
          };
        }
        case 'test_quarantine.dequarantined': {
          const { [event.data.quarantineId]: _lifted, ...active } = state.active;
          return { ...state, active };
        }
        case 'test_quarantine.auto_quarantine_enabled':
          return { ...state, autoQuarantine: { enabled: true, ...event.data.settings } };
        case 'test_quarantine.auto_quarantine_disabled':
          return { ...state, autoQuarantine: { enabled: false, ...event.data.settings } };
        case 'test_quarantine.auto_quarantine_modified':
          return { ...state, autoQuarantine: { enabled: true, ...event.data.after } };
        default:
          return state;
      }
    },
  };
