import { failureIdOf, normaliseFailureMessage } from './failure-identity';
import { TEST_ID_NAMESPACE, testIdOf } from './test-identity';
import { uuid5 } from './uuid5';

describe('test and failure identity', () => {
  it('computes RFC 9562 uuid5 (the DNS namespace example)', () => {
    expect(uuid5('www.example.com', '6ba7b810-9dad-11d1-80b4-00c04fd430c8')).toBe(
      '2ed6657d-e927-568b-95e1-2665a8aea6a2',
    );
  });

  it('gives a test one id per repository, whatever the case of the repository', () => {
    expect(testIdOf('Acme/App', 'tests/a.py::t')).toBe(testIdOf('acme/app', 'tests/a.py::t'));
    expect(testIdOf('acme/app', 'tests/a.py::t')).not.toBe(testIdOf('acme/other', 'tests/a.py::t'));
    expect(testIdOf('acme/app', 'tests/a.py::t')).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
  });

  it('gives the uuid5 of the name every time it is asked, past the ids it keeps as well', () => {
    const expected = uuid5('acme/app\ntests/a.py::t', TEST_ID_NAMESPACE);
    expect(testIdOf('Acme/App', 'tests/a.py::t')).toBe(expected);
    for (let i = 0; i < 60_000; i++) testIdOf('acme/app', `t${i}`);
    expect(testIdOf('acme/app', 'tests/a.py::t')).toBe(expected);
    expect(testIdOf('Acme/App', 'tests/a.py::t')).toBe(expected);
    expect(testIdOf('acme/app', 't59999')).toBe(uuid5('acme/app\nt59999', TEST_ID_NAMESPACE));
  });

  it('masks paths, uuids, hex and numbers in failure messages', () => {
    expect(normaliseFailureMessage('expected 200,  got 503 at /srv/app/x.py:12')).toBe(
      'expected <n>, got <n> at <path>:<n>',
    );
    expect(normaliseFailureMessage('object at 0x7f3a2b1c not found in 3f2c9a1b8d7e')).toBe(
      'object at <hex> not found in <hex>',
    );
    expect(normaliseFailureMessage('run 0b7c1d1e-2f3a-4b5c-8d9e-0f1a2b3c4d5e failed')).toBe(
      'run <uuid> failed',
    );
    expect(normaliseFailureMessage('C:\\work\\repo\\file.cs failed after -1.5e3 ms')).toBe(
      '<path> failed after <n> ms',
    );
  });

  it('groups failures by test, type and masked message', () => {
    const test = testIdOf('acme/app', 't');
    expect(failureIdOf(test, 'AssertionError', 'got 500')).toBe(
      failureIdOf(test, 'AssertionError', 'got 503'),
    );
    expect(failureIdOf(test, 'AssertionError', 'got 500')).not.toBe(
      failureIdOf(test, 'ValueError', 'got 500'),
    );
    expect(failureIdOf(test, 'AssertionError', 'got 500')).not.toBe(
      failureIdOf(testIdOf('acme/app', 'u'), 'AssertionError', 'got 500'),
    );
  });
});
