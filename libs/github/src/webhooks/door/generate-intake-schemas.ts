/*
 * Rewrites intake-schemas.json from GitHub's published webhook description after an upgrade of
 * @octokit/openapi-webhooks or a change of intake-reads.ts:
 *   node -r @swc-node/register libs/github/src/webhooks/door/generate-intake-schemas.ts
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cutIntakeSchemas } from './intake-schemas.source';

writeFileSync(join(__dirname, 'intake-schemas.json'), `${JSON.stringify(cutIntakeSchemas(), null, 1)}\n`);
