import { mergeRefusalOutcome } from './merge-refusal';

describe('mergeRefusalOutcome', () => {
  it.each([
    ['merging acme/widgets#7 (squash): Base branch was modified. Review and try the merge again.', 'retry'],
    ['Required status check "ci" is expected.', 'pending'],
    ['2 of 3 required status checks are expected.', 'pending'],
    ['Required status check "ci" is in progress.', 'pending'],
    ['Head branch was modified. Review and try the merge again.', 'error'],
    ['At least 1 approving review is required by reviewers with write access.', 'error'],
    ['Pull Request is not mergeable', 'error'],
    ['Required status check "ci" is failing.', 'error'],
  ])('%s → %s', (message, outcome) => {
    expect(mergeRefusalOutcome(message)).toBe(outcome);
  });
});
