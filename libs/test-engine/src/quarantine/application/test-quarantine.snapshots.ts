import type { JsonValue } from '@switchyard/event-store';
import type { SnapshottingDecider } from '@switchyard/event-store/application';
import {
  type TestQuarantineCommand,
  testQuarantineDecider,
  type TestQuarantineEvent,
  type TestQuarantineState,
} from '../domain/test-quarantine';

/**
 * The decider as commands run it: a repository's stream grows with every quarantine, lifting and
 * automatic reaction, so its state (plain JSON already) is snapshotted and a command folds only the
 * events since. Bump the version when TestQuarantineState changes shape.
 */
export const quarantineCommandDecider: SnapshottingDecider<
  TestQuarantineState,
  TestQuarantineCommand,
  TestQuarantineEvent
> = {
  ...testQuarantineDecider,
  snapshots: {
    name: 'test_quarantines',
    version: 1,
    toSnapshot: (state) => state as unknown as JsonValue,
    fromSnapshot: (snapshot) => snapshot as unknown as TestQuarantineState,
  },
};
