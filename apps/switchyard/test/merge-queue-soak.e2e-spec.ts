import { SHORT_SCENARIOS } from './soak/scenario';
import { soakSeed } from './soak/soak';
import { allInOneTarget, type OpenTarget } from './soak/soak-targets';

/**
 * The short variant of `npm run soak`: a few fixed seeds of generated configurations and
 * pull-request lives, played over HTTP against the all-in-one app and its sandbox forge, each
 * checked against every invariant of the soak. Its scenarios are small and have no 60 s timeouts
 * (docs/queue-behaviour.md, "Soak"); `npm run soak` runs the full space. A failure prints the seed's scenario and its replay line.
 */
describe('the merge queue soak, short variant (all-in-one app, sandbox forge)', () => {
  jest.setTimeout(900_000);
  let target: OpenTarget;

  beforeAll(async () => {
    target = await allInOneTarget();
  }, 120_000);
  afterAll(() => target?.close());

  // Fixed seeds, so that a failure replays: each draws a configuration and the lives of 3 to 6
  // pull requests (a failure prints both and the replay line).
  it.each(['short-28', 'short-16', 'short-13'])('seed %s keeps every invariant', async (seed) => {
    const lines: string[] = [];
    const outcome = await soakSeed(target, seed, SHORT_SCENARIOS, 'short', (line) => lines.push(line));
    if (outcome.violations.length > 0) throw new Error(lines.join('\n'));
    expect(outcome.violations).toEqual([]);
  });
});
