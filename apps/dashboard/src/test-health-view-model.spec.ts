import {
  ciPath,
  describeTransition,
  NO_TEST_FILTERS,
  percent,
  quarantineBody,
  quarantineScope,
  testSearchQuery,
} from './test-health-view-model';

describe('test health pages', () => {
  it('reads the test engine under /v1/ci/{owner}/repositories/{repository}', () => {
    expect(ciPath('acme/widgets')).toBe('/v1/ci/acme/repositories/widgets');
  });

  it('asks search/tests for each health status checked, the name and the quarantine flag, worst first', () => {
    const query = new URLSearchParams(
      testSearchQuery({ testName: ' pkg.* ', health: ['broken', 'flaky'], quarantined: 'false' }, 25),
    );
    expect(query.getAll('health_status')).toEqual(['broken', 'flaky']);
    expect(query.get('test_name')).toBe('pkg.*');
    expect(query.get('is_quarantined')).toBe('false');
    expect(query.get('sort')).toBe('failed_executions_ratio');
    expect(query.get('direction')).toBe('desc');
    expect(query.get('per_page')).toBe('25');
  });

  it('leaves out the filters not given', () => {
    expect([...new URLSearchParams(testSearchQuery(NO_TEST_FILTERS, 50)).keys()]).toEqual([
      'sort',
      'direction',
      'per_page',
    ]);
  });

  it('shows ratios as percentages, small ones with a decimal, unknown ones as a dash', () => {
    expect(percent(0.25)).toBe('25%');
    expect(percent(0.004)).toBe('0.4%');
    expect(percent(0)).toBe('0%');
    expect(percent(null)).toBe('—');
  });

  it('sends an empty branch as every branch', () => {
    expect(quarantineBody('pkg.test_one', ' flaky on CI ', ' ', true)).toEqual({
      test_name: 'pkg.test_one',
      reason: 'flaky on CI',
      branch: null,
      unquarantine_when_healthy: true,
    });
    expect(quarantineBody('t', 'r', 'main', false).branch).toBe('main');
  });

  it('says where a quarantine applies', () => {
    expect(quarantineScope({ branch_name: null, pipeline_name: 'ci', job_name: null })).toBe(
      'every branch, pipeline ci, every job',
    );
  });

  it('tells a transition with its cause when the API knows it', () => {
    expect(describeTransition({ at: '2026-03-01T00:00:00Z', health_status: 'healthy' }, null)).toBe(
      'First seen healthy',
    );
    expect(
      describeTransition(
        {
          at: '2026-03-02T00:00:00Z',
          health_status: 'broken',
          exception_type: 'KeyError',
          pull_request: { number: 7, title: 'Drop the cache' },
        },
        'healthy',
      ),
    ).toBe('healthy → broken, after KeyError from #7 Drop the cache');
  });
});
