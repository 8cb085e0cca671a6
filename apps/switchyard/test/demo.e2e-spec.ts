import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { expectedEnds, SHORT_SCENARIO } from '../../demo/src/demo-scenario';
import { QueueNarrator, type LogEvent } from '../../demo/src/queue-narrator';
import type { Position } from '@switchyard/event-store';
import { eventually } from '@switchyard/testing';
import { startTestApp, type TestApp } from './harness';

const ROOT = join(__dirname, '..', '..', '..');

interface DemoRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `npm run demo`'s program from the sources, pointed at a service already running, its output piped. */
function runDemoAgainst(app: TestApp): Promise<DemoRun> {
  const child = spawn(
    process.execPath,
    ['-r', '@swc-node/register', join('apps', 'demo', 'src', 'main.ts')],
    {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH ?? '',
        SWITCHYARD_URL: app.baseUrl,
        SWITCHYARD_ADMIN_KEY: app.adminKey,
        DEMO_SHORT: '1',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const stdout: Buffer[] = [];
  const stderr: Buffer[] = [];
  child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
  child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
  return new Promise((resolve) =>
    child.once('close', (code) =>
      resolve({ code, stdout: Buffer.concat(stdout).toString(), stderr: Buffer.concat(stderr).toString() }),
    ),
  );
}

/** `[   1.2s] ✔ #4 merged` -> `#4 merged`: the narrated text, without time and mark. */
const NARRATED = /^\[\s*\d+\.\d+s\] \S+ (.*)$/;

/** Every event of the repository's activity log, oldest first, read as any client would. */
async function wholeLog(app: TestApp, repository: string): Promise<LogEvent[]> {
  const events: LogEvent[] = [];
  // The test app's HTTP clock stands still in the past; the queue's events carry the real time.
  const hour = 3_600_000;
  const window = new URLSearchParams({
    received_from: new Date(Date.now() - hour).toISOString(),
    received_to: new Date(Date.now() + hour).toISOString(),
  });
  let path: string | null = `/v1/repos/${repository}/logs?per_page=100&${window.toString()}`;
  while (path !== null) {
    const page: { status: number; headers: Headers; body: { events: LogEvent[] } } = await app.request(
      'GET',
      path,
    );
    expect(page.status).toBe(200);
    events.push(...page.body.events);
    const next = /<([^>]+)>;\s*rel="next"/.exec(page.headers.get('link') ?? '')?.[1];
    path = next ? new URL(next).pathname + new URL(next).search : null;
  }
  return events.sort((a, b) => a.received_at.localeCompare(b.received_at) || a.id - b.id);
}

describe('npm run demo (short form, against a running service)', () => {
  jest.setTimeout(600_000);
  let app: TestApp;

  beforeAll(async () => {
    app = await startTestApp({ SWITCHYARD_SANDBOX_CI_SECONDS: '0' });
  }, 120_000);
  afterAll(async () => {
    if (!app) return;
    // The queue's last effects (labels, status comments and their webhooks) go on after the drain:
    // close once the store's head stood still for a while and every processor has read it.
    let last: Position | null = null;
    await eventually(
      'the service to go quiet',
      async () => {
        const head = await app.running.storage.store.headPosition();
        const still = head !== null && head === last;
        last = head;
        return still;
      },
      { intervalMs: 2_000 },
    );
    const processors = app.running.projections!;
    await processors.waitFor(processors.names, last!, 30_000);
    await app.close();
  }, 180_000);

  it('drains the queue as it narrates: the good pull requests merged, the bad ones dequeued with the reason told', async () => {
    const run = await runDemoAgainst(app);
    expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' });
    const lines = run.stdout.split('\n');
    // Piped, the output is plain text: no colours, no progress bar redrawn in place.
    expect(run.stdout).not.toContain(String.fromCharCode(0x1b));
    expect(run.stdout).not.toContain('\r');

    const repository = /^Creating (\S+) on the sandbox forge/m.exec(run.stdout)?.[1];
    expect(repository).toMatch(/^acme\/demo-/);
    const numberOf = new Map(
      lines.flatMap((line) => {
        const opened = /^ {2}opened #(\d+) (.+) \(/.exec(line);
        return opened ? [[opened[2]!, Number(opened[1])] as const] : [];
      }),
    );
    expect([...numberOf.keys()]).toEqual(SHORT_SCENARIO.map((change) => change.title));

    const narrated = lines.flatMap((line) => NARRATED.exec(line)?.[1] ?? []);
    const log = await wholeLog(app, repository!);
    const narrator = new QueueNarrator();
    const fromLog = log.flatMap((event) => narrator.narrate(event)?.text ?? []);
    // Whatever the demo told is in the log, once each time it happened...
    const remaining = [...fromLog];
    for (const told of narrated) {
      expect(remaining).toContain(told);
      remaining.splice(remaining.indexOf(told), 1);
    }
    // ...and it told every entry and every departure the log holds.
    const departures = (texts: string[]) =>
      texts.filter((text) => / (entered the queue|merged|dequeued)\b/.test(text)).sort();
    expect(departures(narrated)).toEqual(departures(fromLog));

    // Of two rivals, the one the queue took second is the one dequeued.
    const opened = SHORT_SCENARIO.map((change) => ({ number: numberOf.get(change.title)!, change }));
    const entryOrder = [
      ...new Set(
        log.filter((event) => event.type === 'action.queue.enter').map((event) => event.pull_request!),
      ),
    ];
    const ends = expectedEnds(opened, entryOrder);
    for (const { number } of opened) {
      const expected = ends.get(number)!;
      const pull = await app.request('GET', `/sandbox/github/repos/${repository}/pulls/${number}`);
      expect({ number, merged: pull.body.merged }).toEqual({ number, merged: expected.merged });
      const left = log.filter(
        (event) => event.type === 'action.queue.leave' && event.pull_request === number,
      );
      expect(left).toHaveLength(1);
      if (expected.merged) {
        expect(narrated).toContain(`#${number} merged`);
        continue;
      }
      const { dequeue_code: code, reason } = left[0]!.metadata as { dequeue_code: string; reason: string };
      // The second of two edits to one line conflicts with the first, queued ahead or merged already.
      const codes =
        expected.because === 'textual conflict'
          ? ['CONFLICT_WITH_PULL_AHEAD', 'CONFLICT_WITH_BASE_BRANCH']
          : ['CHECKS_FAILED'];
      expect(codes).toContain(code);
      expect(narrated).toContain(`#${number} dequeued (${code}): ${reason}`);
    }
    expect(run.stdout).toContain(`${app.baseUrl}/ui`);
  });
});
