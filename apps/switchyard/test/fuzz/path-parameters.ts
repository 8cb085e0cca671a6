import fc from 'fast-check';
import { hostileString } from './hostile-text';
import { encodedText, percentEncode } from './url-text';

/** What the suite set up before fuzzing: the account its keys belong to and freezes that exist. */
export interface FuzzState {
  account: string;
  repository: string;
  freezeIds: readonly string[];
}

/**
 * Arbitraries for each `{placeholder}` the endpoint table uses, already percent-encoded: mostly
 * values that address the state the suite set up, so requests reach the handlers, else anything.
 */
export function pathParameters(state: FuzzState): Record<string, fc.Arbitrary<string>> {
  const segment = (plausible: fc.Arbitrary<string>) =>
    fc.oneof(
      { weight: 3, arbitrary: plausible.map(percentEncode) },
      { weight: 1, arbitrary: encodedText(plausible) },
    );
  return {
    owner: segment(
      fc.oneof(
        { weight: 6, arbitrary: fc.constant(state.account) },
        {
          weight: 1,
          arbitrary: fc.constantFrom(state.account.toUpperCase(), 'other', 'a'.repeat(41), 'under_score'),
        },
      ),
    ),
    repository: segment(
      fc.oneof(
        { weight: 6, arbitrary: fc.constant(state.repository) },
        {
          weight: 1,
          arbitrary: fc.constantFrom('Widgets.js', 'r'.repeat(100), 'r'.repeat(101), '.', '..', '-'),
        },
      ),
    ),
    freeze_id: segment(
      fc.oneof(
        ...(state.freezeIds.length > 0
          ? [{ weight: 4, arbitrary: fc.constantFrom(...state.freezeIds) }]
          : []),
        {
          weight: 1,
          arbitrary: fc.constantFrom(...state.freezeIds.map((id) => id.toUpperCase()), 'not-a-uuid'),
        },
        { weight: 1, arbitrary: fc.uuid() },
      ),
    ),
    number: segment(
      fc.constantFrom('1', '0', '42', '-1', '9223372036854775807', '9223372036854775808', 'abc'),
    ),
    quarantine_id: segment(fc.oneof(fc.uuid(), fc.constantFrom('not-a-uuid', ''))),
    test_id: segment(fc.oneof(fc.uuid(), fc.constantFrom('not-a-uuid', ''))),
    failure_id: segment(fc.oneof(fc.uuid(), fc.constantFrom('not-a-uuid'))),
    test_stat: segment(
      fc.constantFrom('success_count', 'failure_count', 'flaky_count', 'mean_duration', 'nope'),
    ),
    repository_test_stat: segment(
      fc.constantFrom(
        'total_tests',
        'healthy_tests',
        'broken_tests',
        'flaky_tests',
        'failed_executions',
        'nope',
      ),
    ),
    any_path: fc
      .array(
        fc.oneof(
          fc.constantFrom(
            'v1',
            'repos',
            state.account,
            state.repository,
            'merge-queue',
            'pause',
            'logs',
            '..',
            '',
          ),
          encodedText(hostileString),
        ),
        { minLength: 1, maxLength: 6 },
      )
      .map((segments) => `/${segments.join('/')}`),
  };
}
