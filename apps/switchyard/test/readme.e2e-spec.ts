import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fencedBlocks, shownFailureStatuses, shownOutput } from './readme-blocks';

const root = resolve(__dirname, '../../..');
/** Long enough for a first build and the merge-queue example on a loaded machine. */
const SCRIPT_LIMIT_MS = 900_000;

/** Variables of the test's own environment that a reader's shell does not have. */
const NOT_A_READERS = [
  'DATABASE_URL',
  'REDIS_URL',
  'EVENTSTORE_URL',
  'SWITCHYARD_ADMIN_KEY',
  'SWITCHYARD_REQUIRE_POSTGRES',
  'SWITCHYARD_REQUIRE_REDIS',
  'SWITCHYARD_GITHUB_APP_ID',
  'SWITCHYARD_GITHUB_PRIVATE_KEY',
  'SWITCHYARD_GITHUB_PRIVATE_KEY_FILE',
  'SWITCHYARD_GITHUB_WEBHOOK_SECRET',
  'SWITCHYARD_GITHUB_API_URL',
  'LOG_FORMAT',
];

function readersEnvironment(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, ...extra };
  for (const name of NOT_A_READERS) if (!(name in extra)) delete env[name];
  return env;
}

/**
 * curl as the reader has it, plus a note of every answer's status: the wrapper adds `-D` (dump the
 * headers to a file), which changes nothing curl prints or returns.
 */
function recordingCurl(directory: string): string {
  const real = spawnSync('bash', ['-c', 'command -v curl'], { encoding: 'utf8' }).stdout.trim();
  if (real === '') throw new Error('the README test needs curl on PATH');
  if (spawnSync('bash', ['-c', 'command -v jq']).status !== 0)
    throw new Error('the README test needs jq on PATH, as the README says its readers do');
  const bin = join(directory, 'bin');
  spawnSync('mkdir', ['-p', bin]);
  const wrapper = join(bin, 'curl');
  writeFileSync(
    wrapper,
    [
      '#!/usr/bin/env bash',
      `headers=$(mktemp "${directory}/headers.XXXXXX")`,
      `${JSON.stringify(real)} -D "$headers" "$@"`,
      'code=$?',
      `status=$(grep -aE '^HTTP/' "$headers" | tail -n 1 | cut -d ' ' -f 2)`,
      `printf '%s\\t%s\\n' "\${status:-none}" "$*" >> ${JSON.stringify(join(directory, 'answers'))}`,
      'rm -f "$headers"',
      'exit $code',
      '',
    ].join('\n'),
  );
  chmodSync(wrapper, 0o755);
  return bin;
}

/**
 * The README's shell examples, run as a reader runs them: every fenced `sh` block in order, in one
 * bash (`set -euo pipefail`) from the repository's root, against a service started as the quick
 * start starts it (its own process, the embedded store in a new directory, nothing else) with the
 * key it printed in `KEY`. Any command that fails fails the test, and so does any answer outside
 * 2xx that the README does not show (`# 404` on a line of its own), in the order it shows them, and
 * any line it shows as printed (a whole-line comment, `…` for any text) that no command printed.
 */
describe('the README examples', () => {
  jest.setTimeout(1_200_000);
  let directory: string;
  let service: ChildProcessWithoutNullStreams | null = null;
  let serviceOutput = '';
  let examples: ChildProcessWithoutNullStreams | null = null;
  const stopExamples = () => {
    if (examples?.pid !== undefined && examples.exitCode === null && examples.signalCode === null)
      process.kill(-examples.pid, 'SIGKILL');
  };

  beforeAll(() => {
    directory = mkdtempSync(join(tmpdir(), 'switchyard-readme-'));
  });
  afterAll(async () => {
    stopExamples();
    if (service && service.exitCode === null) {
      const exited = new Promise((done) => service!.once('exit', done));
      service.kill('SIGTERM');
      await exited;
    }
    rmSync(directory, { recursive: true, force: true });
  });

  const startService = async (): Promise<{ url: string; key: string }> => {
    const dataDir = join(directory, 'data');
    service = spawn(process.execPath, ['-r', '@swc-node/register', 'apps/switchyard/src/main.ts'], {
      cwd: root,
      env: readersEnvironment({
        PORT: '0',
        HOST: '127.0.0.1',
        SWITCHYARD_DATA_DIR: dataDir,
        // The sandbox's CI answers in a second, so the merge-queue example drains in seconds.
        SWITCHYARD_SANDBOX_CI_SECONDS: '1',
        LOG_FORMAT: 'json',
        LOG_LEVEL: 'info',
      }),
    });
    service.stdout.setEncoding('utf8').on('data', (chunk: string) => (serviceOutput += chunk));
    service.stderr.setEncoding('utf8').on('data', (chunk: string) => (serviceOutput += chunk));
    return new Promise((done, fail) => {
      const late = setTimeout(
        () => fail(new Error(`the service printed no key and address in 300 s:\n${serviceOutput}`)),
        300_000,
      );
      const check = () => {
        const key = /store it now:\s+(\S+)\s/.exec(serviceOutput)?.[1];
        const url = /"msg":"switchyard listening"/.test(serviceOutput)
          ? /"url":"(http:[^"]+)"[^\n]*"msg":"switchyard listening"/.exec(serviceOutput)?.[1]
          : undefined;
        if (key && url) {
          clearTimeout(late);
          service!.stdout.off('data', check);
          done({ url, key });
        }
      };
      service!.stdout.on('data', check);
      service!.once('exit', (code) => fail(new Error(`the service exited (${code}):\n${serviceOutput}`)));
    });
  };

  it('run as written, in order, and answer what they show', async () => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    const shellBlocks = fencedBlocks(readme).filter((block) => block.language === 'sh');
    expect(shellBlocks.length).toBeGreaterThan(5);
    const script = [
      'set -euo pipefail',
      ...shellBlocks.flatMap((block) => [`echo '### README.md line ${block.line}' >&2`, block.text]),
      '',
    ].join('\n');
    const scriptFile = join(directory, 'readme.sh');
    writeFileSync(scriptFile, script);

    const { url, key } = await startService();
    const bin = recordingCurl(directory);
    const run = spawn('bash', [scriptFile], {
      cwd: root,
      env: readersEnvironment({ SWITCHYARD: url, KEY: key, PATH: `${bin}:${process.env.PATH}` }),
      detached: true, // a group of its own, so that a wait loop left running can be stopped with it
    });
    examples = run;
    // Past this, the examples hang (a wait that never ends): stop them and report where they were.
    const giveUp = setTimeout(() => stopExamples(), SCRIPT_LIMIT_MS);
    let output = '';
    run.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    run.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    const code = await new Promise<number | null>((done) => run.once('exit', done));
    clearTimeout(giveUp);

    const answersFile = join(directory, 'answers');
    const answers = existsSync(answersFile)
      ? readFileSync(answersFile, 'utf8')
          .split('\n')
          .filter(Boolean)
          .map((line) => {
            const [status, command] = line.split('\t');
            return { status: status === 'none' ? null : Number(status), command };
          })
      : [];
    const tail = (text: string) => text.split('\n').slice(-60).join('\n');
    if (code !== 0)
      throw new Error(
        `the README's shell examples stopped (exit ${code ?? `killed after ${SCRIPT_LIMIT_MS / 1000} s`}); the last block started is the last "### README.md line"\n` +
          `${tail(output)}\n--- the service said:\n${tail(serviceOutput)}`,
      );
    const notSuccesses = answers.filter((answer) => answer.status === null || answer.status >= 300);
    const shown = shellBlocks.flatMap((block) => shownFailureStatuses(block.text));
    if (notSuccesses.map((answer) => answer.status).join() !== shown.join())
      throw new Error(
        `the README shows the answers outside 2xx ${JSON.stringify(shown)}; its examples got these:\n` +
          notSuccesses
            .map((answer) => `${answer.status ?? 'no answer'} from curl ${answer.command}`)
            .join('\n'),
      );
    expect(answers.length).toBeGreaterThan(20);
    // What the README shows the commands print, they print (in some line of the whole run).
    const printed = output.split('\n').map((line) => line.trimEnd());
    const notPrinted = shellBlocks
      .flatMap((block) => shownOutput(block))
      .filter(({ pattern }) => !printed.some((line) => pattern.test(line)))
      .map(({ line, shown }) => `README.md:${line} shows ${shown}`);
    if (notPrinted.length > 0)
      throw new Error(
        `the README shows output its examples did not print:\n${notPrinted.join('\n')}\n--- they printed:\n${output}`,
      );
  });
});
