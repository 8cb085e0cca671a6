import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { demoOutput } from './demo-output';
import { FULL_SCENARIO, SHORT_SCENARIO } from './demo-scenario';
import { runDemo } from './run-demo';
import { startService, type ServiceProcess } from './service-process';
import { SwitchyardHttp } from './switchyard-http';
import { summaryLines, whereToLookLines } from './where-to-look';

/**
 * `npm run demo`. Without SWITCHYARD_URL it starts the service (embedded store, sandbox forge)
 * and leaves it running once the queue drained; with SWITCHYARD_URL and SWITCHYARD_ADMIN_KEY it
 * plays against a service already running and exits. DEMO_SHORT=1 plays the short scenario.
 */

/** The checkout: the nearest directory above this file with a package.json (above dist/ once built). */
function checkoutRoot(): string {
  let directory = __dirname;
  while (!existsSync(join(directory, 'package.json'))) {
    const parent = dirname(directory);
    if (parent === directory) throw new Error(`no package.json above ${__dirname}`);
    directory = parent;
  }
  return directory;
}

async function main(): Promise<number> {
  const output = demoOutput(process.stdout);
  const scenario = process.env.DEMO_SHORT === '1' ? SHORT_SCENARIO : FULL_SCENARIO;
  const timeoutMs = Number(process.env.DEMO_TIMEOUT_SECONDS ?? '900') * 1000;
  const existingUrl = process.env.SWITCHYARD_URL?.replace(/\/+$/, '');

  let service: ServiceProcess | null = null;
  let url: string;
  let adminKey: string;
  if (existingUrl) {
    const key = process.env.SWITCHYARD_ADMIN_KEY;
    if (!key) {
      process.stderr.write(
        'demo: SWITCHYARD_URL is set but SWITCHYARD_ADMIN_KEY is not: the demo needs the admin key\n',
      );
      return 2;
    }
    url = existingUrl;
    adminKey = key;
    output.say(`Playing the demo against ${url}.`);
  } else {
    adminKey = `sy_demo_${randomBytes(24).toString('base64url')}`;
    const root = checkoutRoot();
    const dataDir = join(root, '.switchyard-demo');
    output.say('Starting Switchyard (embedded store in .switchyard-demo/, sandbox forge)...');
    service = await startService({
      entry: join(root, 'dist', 'apps', 'switchyard', 'src', 'main.js'),
      dataDir,
      port: Number(process.env.PORT ?? '8080'),
      adminKey,
      sandboxCiSeconds: process.env.SWITCHYARD_SANDBOX_CI_SECONDS,
    });
    url = service.url;
    stopServiceOnSignals(service);
    output.say(`Switchyard is up at ${url} (its log: ${service.logFile}).\n`);
  }

  try {
    const result = await runDemo({ http: new SwitchyardHttp(url, adminKey), scenario, output, timeoutMs });
    for (const line of summaryLines(result)) output.say(line);
    for (const line of whereToLookLines(url, adminKey, result.repository)) output.say(line);
    const surprises = result.pullRequests.filter((pull) => !pull.asExpected).length;
    if (service) {
      output.say('\nSwitchyard keeps running; Ctrl-C stops it.');
      await service.exited;
    }
    return surprises === 0 ? 0 : 1;
  } catch (error) {
    await service?.stop();
    throw error;
  }
}

/** Ctrl-C (or SIGTERM) stops the demo's service, which runs in a process group of its own. */
function stopServiceOnSignals(service: ServiceProcess): void {
  const stop = () =>
    void service.stop().then(() => {
      process.stdout.write('\nSwitchyard stopped.\n');
      process.exit(130);
    });
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

void main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`demo: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
