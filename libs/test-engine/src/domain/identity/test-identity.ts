import { uuid5 } from './uuid5';

/**
 * The fixed namespaces of Switchyard's name-based ids (docs/test-health.md, "Identity"). Never
 * change them: every stored test_id, failure id and quarantine link is derived from them.
 */
export const TEST_ID_NAMESPACE = '6f1c1d57-3f0e-4c0b-9a52-6b8e6c3b7a10';
export const FAILURE_ID_NAMESPACE = 'b0c4a8e2-5d77-4e3a-8f1e-2a9d4c6e8b31';

/**
 * A test's stable id: uuid5 of `<owner/repository lower-cased>\n<test name>`. The same name in two
 * repositories is two tests; the same name under two pipelines or jobs is one test with two
 * identities (see TestIdentity).
 */
export function testIdOf(repository: string, testName: string): string {
  const key = `${repository}\n${testName}`;
  let id = recentTestIds.get(key);
  if (id === undefined) {
    id = uuid5(`${repository.toLowerCase()}\n${testName}`, TEST_ID_NAMESPACE);
    if (recentTestIds.size >= RECENT_TEST_IDS) recentTestIds.clear();
    recentTestIds.set(key, id);
  }
  return id;
}

/**
 * Every upload of a suite asks again for the ids of the same tests, one SHA-1 each: the ids last
 * asked for are kept (a map lookup is about a tenth of the hash). Bounded, a few MB at most; a
 * repository with more tests than this only hashes as before.
 */
const RECENT_TEST_IDS = 50_000;
const recentTestIds = new Map<string, string>();

/** What health is computed for (ci-insights §2): a test under one pipeline and one job. */
export interface TestIdentity {
  testId: string;
  pipelineName: string;
  jobName: string;
}

/** Uploads without a pipeline (the CLI on CircleCI) or job still need a name to group under. */
export const UNKNOWN_PIPELINE = 'unknown';
export const UNKNOWN_JOB = 'unknown';
