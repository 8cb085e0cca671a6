import { existsSync } from 'node:fs';

/** Debian's `chromium` package: the browser the dashboard's browser suite drives (playwright-core). */
export const CHROMIUM_PATH = '/usr/bin/chromium';

/**
 * The Chromium browser suites may drive, or null (said once on stderr) so the suite skips. With
 * SWITCHYARD_REQUIRE_CHROMIUM=1 (set by .ci/run, which installs it) a missing browser fails instead.
 */
export function testChromiumPath(): string | null {
  if (existsSync(CHROMIUM_PATH)) return CHROMIUM_PATH;
  if (process.env.SWITCHYARD_REQUIRE_CHROMIUM === '1')
    throw new Error(
      `SWITCHYARD_REQUIRE_CHROMIUM=1 but ${CHROMIUM_PATH} is missing: apt-get install -y chromium`,
    );
  process.stderr.write(
    `[switchyard tests] browser suites skipped: ${CHROMIUM_PATH} is missing (apt-get install -y chromium)\n`,
  );
  return null;
}
