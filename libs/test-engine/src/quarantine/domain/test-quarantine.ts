import { type Actor, checkStorableString, conflict, type Decider, notFound } from '@switchyard/kernel';
import { autoQuarantineReason, autoQuarantines } from './auto-quarantine-policy';
import type { HealthStatus } from './health-status';
import {
  coversIdentity,
  type IdentityHealth,
  type QuarantineScope,
  sameScope,
  scopeHealth,
} from './quarantine-scope';

/*
 * A repository's test quarantines, as one aggregate: its commands, its events, its errors, its
 * state, the decider and the stream it lives on. The rules it applies are beside it
 * (auto-quarantine-policy.ts, quarantine-scope.ts).
 */

/** POST quarantines: every pipeline and job of the test, on one branch or all (null). */
export interface QuarantineTest {
  type: 'QuarantineTest';
  repository: string;
  quarantineId: string;
  testName: string;
  testId: string;
  reason: string;
  branch: string | null;
  unquarantineWhenHealthy: boolean;
  /** The test's current health on the default branch, read by the caller (null: no recent runs). */
  health: HealthStatus | null;
  actor: Actor;
  at: Date;
}

/** DELETE quarantines/{id}. */
export interface DequarantineTest {
  type: 'DequarantineTest';
  repository: string;
  quarantineId: string;
  /** Health per identity of the quarantined test on the default branch, read by the caller. */
  identities: readonly IdentityHealth[];
  actor: Actor;
  at: Date;
}

/** The admin route: switch auto-quarantine on (with its option) or off. */
export interface ConfigureAutoQuarantine {
  type: 'ConfigureAutoQuarantine';
  repository: string;
  enabled: boolean;
  ignoreBrokenOnDefaultBranch: boolean;
  actor: Actor;
  at: Date;
}

/**
 * One test's health on the default branch now: every identity of the test with its health.
 * `autoQuarantineIds[i]` is the id a quarantine of `identities[i]` would get, derived from the
 * source event, so a retried reaction makes the same one.
 */
export interface TestHealthUpdate {
  testName: string;
  testId: string;
  identities: readonly IdentityHealth[];
  autoQuarantineIds: readonly string[];
}

/**
 * Tests' health on the default branch changed (one upload, or auto-quarantine switched on).
 * Issued by the quarantine-health reactor, one command per reaction; the decider lifts recovered
 * quarantines and, when auto-quarantine is on, quarantines unhealthy identities.
 */
export interface ApplyTestHealth {
  type: 'ApplyTestHealth';
  repository: string;
  tests: readonly TestHealthUpdate[];
  at: Date;
}

export type TestQuarantineCommand =
  QuarantineTest | DequarantineTest | ConfigureAutoQuarantine | ApplyTestHealth;

export type QuarantineSource = 'manual' | 'auto';

/** What a quarantine is, as recorded when it was made. */
export interface QuarantineRecord extends QuarantineScope {
  quarantineId: string;
  testName: string;
  testId: string;
  reason: string;
  source: QuarantineSource;
  unquarantineWhenHealthy: boolean;
  /** The test's health in this scope when quarantined; null when it had no recent runs. */
  healthAtEvent: HealthStatus | null;
}

/** A test quarantined, by a caller (manual) or by auto-quarantine (auto, no actor). */
export interface TestQuarantined {
  type: 'test_quarantine.quarantined';
  data: QuarantineRecord & { repository: string; actor: Actor | null; at: string };
}

/** A quarantine lifted, by a caller (manual) or once the test recovered (auto, no actor). */
export interface TestDequarantined {
  type: 'test_quarantine.dequarantined';
  data: {
    quarantineId: string;
    repository: string;
    source: QuarantineSource;
    original: QuarantineRecord & { createdAt: string };
    /** The test's health in the quarantine's scope when lifted; null without recent runs. */
    healthAtEvent: HealthStatus | null;
    actor: Actor | null;
    at: string;
  };
}

export interface AutoQuarantineSettings {
  ignoreBrokenOnDefaultBranch: boolean;
}

export interface AutoQuarantineEnabled {
  type: 'test_quarantine.auto_quarantine_enabled';
  data: { repository: string; settings: AutoQuarantineSettings; actor: Actor; at: string };
}

export interface AutoQuarantineDisabled {
  type: 'test_quarantine.auto_quarantine_disabled';
  data: { repository: string; settings: AutoQuarantineSettings; actor: Actor; at: string };
}

export interface AutoQuarantineModified {
  type: 'test_quarantine.auto_quarantine_modified';
  data: {
    repository: string;
    before: AutoQuarantineSettings;
    after: AutoQuarantineSettings;
    actor: Actor;
    at: string;
  };
}

export type TestQuarantineEvent =
  | TestQuarantined
  | TestDequarantined
  | AutoQuarantineEnabled
  | AutoQuarantineDisabled
  | AutoQuarantineModified;

export const testQuarantineEventTypes: readonly TestQuarantineEvent['type'][] = [
  'test_quarantine.quarantined',
  'test_quarantine.dequarantined',
  'test_quarantine.auto_quarantine_enabled',
  'test_quarantine.auto_quarantine_disabled',
  'test_quarantine.auto_quarantine_modified',
];

/**
 * One stream per repository: a duplicate check needs every active quarantine of the repository,
 * and auto-quarantine reads the repository's settings beside them.
 */
export const testQuarantineStreamId = (repository: string): string =>
  `test_quarantines-${repository.toLowerCase()}`;

export const QUARANTINE_NOT_FOUND_MESSAGE = 'The quarantine with the given id does not exist';

/** The CLI prints a string detail as is (client-contract §1.9). */
export const alreadyQuarantinedMessage = (testName: string): string =>
  `Test '${testName}' is already quarantined`;

export const QUARANTINE_TEXT_MAX_CODE_POINTS = 10000;

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
