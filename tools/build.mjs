// `npm run build`: compiles into dist/ only what changed since the last build.
//
// `tsc --build` keeps what it compiled in dist/tsconfig.build.tsbuildinfo and, with nothing
// changed, stops after comparing timestamps (well under a second, where a full compile takes
// about 20 s of CPU). tsc-alias then rewrites the `@switchyard/*` imports of the files tsc just
// wrote, and of no other: the rest of dist/ was rewritten by an earlier build.
//
// The files to rewrite are noted in dist/.alias-pending before the first is touched and the note
// is removed once all are done, so a build stopped in between (Ctrl-C) is finished by the next
// one, which tsc alone would find up to date.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import { prepareSingleFileReplaceTscAliasPaths } from 'tsc-alias';
import { buildDashboard } from './build-ui.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const project = join(root, 'tsconfig.build.json');
const pending = join(root, 'dist', '.alias-pending');
const EMITTED = 'TSFILE: ';

const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const compiled = spawnSync(process.execPath, [tsc, '--build', project, '--listEmittedFiles'], {
  cwd: root,
  encoding: 'utf8',
  stdio: ['ignore', 'pipe', 'inherit'],
});
if (compiled.error) throw compiled.error;

const emitted = [];
for (const line of compiled.stdout.split('\n')) {
  if (line.startsWith(EMITTED)) emitted.push(line.slice(EMITTED.length).trim());
  else if (line !== '') process.stdout.write(`${line}\n`);
}

const leftOver = existsSync(pending) ? readFileSync(pending, 'utf8').split('\n').filter(Boolean) : [];
const toRewrite = [...new Set([...leftOver, ...emitted])].filter((file) => file.endsWith('.js'));
if (toRewrite.length > 0) {
  writeFileSync(pending, toRewrite.join('\n'));
  const rewrite = await prepareSingleFileReplaceTscAliasPaths({ configFile: project });
  for (const file of toRewrite) {
    if (!existsSync(file)) continue;
    const fileContents = readFileSync(file, 'utf8');
    const rewritten = rewrite({ fileContents, filePath: file });
    if (rewritten !== fileContents) writeFileSync(file, rewritten);
  }
  rmSync(pending);
}

// The dashboard's browser bundle (dist/ui), which the service serves at /ui: esbuild, when its
// sources changed.
if (await buildDashboard()) process.stdout.write('dashboard bundled into dist/ui\n');

// tsc's own status: type errors fail the build (and `npm start`), as they always did.
process.exit(compiled.status ?? 1);
