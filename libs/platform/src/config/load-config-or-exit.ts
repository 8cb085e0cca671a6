import { ConfigError } from './config-error';
import { loadConfig } from './load-config';
import type { SwitchyardConfig } from './switchyard-config';

/** For process entry points: wrong configuration ends the process with the list of problems, exit code 2. */
export function loadConfigOrExit(env: Record<string, string | undefined> = process.env): SwitchyardConfig {
  try {
    return loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`switchyard: ${error.message}\n`);
      process.exit(2);
    }
    throw error;
  }
}
