import { DeciderSpecification } from '@switchyard/testing';
import { pullRequestScopesDecider, type PullRequestScopesReported } from './pull-request-scopes';

const AT = '2026-03-02T10:00:00.000Z';
const report = (scopes: string[], allScopes = false) => ({
  repository: 'Acme/Mono',
  pullRequest: 7,
  scopes,
  allScopes,
  at: AT,
});
const reported = (scopes: string[], allScopes = false): PullRequestScopesReported => ({
  type: 'merge_queue.pull_request_scopes_reported',
  data: { repository: 'acme/mono', pullRequest: 7, scopes, allScopes, at: AT },
});

describe('pull request scopes', () => {
  const spec = DeciderSpecification.for(pullRequestScopesDecider);

  it('records the reported scopes once each, sorted, under the lower-cased repository', () => {
    spec
      .given([])
      .when(report(['web', 'api', 'web']))
      .then([reported(['api', 'web'])]);
  });

  it('records nothing when the same set is reported again', () => {
    spec
      .given([reported(['api', 'web'])])
      .when(report(['web', 'api', 'api']))
      .thenNothingHappened();
  });

  it('records a change of scopes or of all_scopes', () => {
    spec
      .given([reported(['api', 'web'])])
      .when(report(['web']))
      .then([reported(['web'])]);
    spec
      .given([reported(['api', 'web'])])
      .when(report(['api', 'web'], true))
      .then([reported(['api', 'web'], true)]);
  });

  it('records an empty first report (the pull request touches no scope)', () => {
    spec
      .given([])
      .when(report([]))
      .then([reported([])]);
  });
});
