// The dashboard's bundle: apps/dashboard/src -> dist/ui (index.html and hashed assets/), which
// the service serves at /ui. Part of `npm run build`; skipped when nothing it reads changed since
// the last bundle (esbuild's own list of inputs, kept in dist/ui/inputs.json).
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const source = join(root, 'apps', 'dashboard', 'src');
const out = join(root, 'dist', 'ui');
const inputsFile = join(out, 'inputs.json');
const indexFile = join(out, 'index.html');

/** Whether the last bundle is newer than every file it was made from (and than this script). */
function upToDate() {
  if (!existsSync(indexFile) || !existsSync(inputsFile)) return false;
  const builtAt = statSync(indexFile).mtimeMs;
  const inputs = [
    ...JSON.parse(readFileSync(inputsFile, 'utf8')),
    relative(root, fileURLToPath(import.meta.url)),
  ];
  return inputs.every(
    (input) => existsSync(join(root, input)) && statSync(join(root, input)).mtimeMs <= builtAt,
  );
}

export async function buildDashboard({ force = false } = {}) {
  // A file added beside the others is not among the last inputs: the folder's own time says so.
  if (!force && upToDate() && statSync(source).mtimeMs <= statSync(indexFile).mtimeMs) return false;
  rmSync(join(out, 'assets'), { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  const result = await build({
    absWorkingDir: root,
    entryPoints: [join(source, 'main.tsx')],
    bundle: true,
    minify: true,
    sourcemap: true,
    format: 'esm',
    target: ['es2022'],
    outdir: join(out, 'assets'),
    entryNames: '[name]-[hash]',
    assetNames: '[name]-[hash]',
    jsx: 'automatic',
    jsxImportSource: 'preact',
    tsconfig: join(root, 'apps', 'dashboard', 'tsconfig.json'),
    metafile: true,
    logLevel: 'warning',
  });
  const outputs = Object.entries(result.metafile.outputs);
  const script = outputs.find(([file, output]) => output.entryPoint && file.endsWith('.js'))[0];
  const style = outputs.find(([file]) => file.endsWith('.css'))?.[0];
  const asset = (file) => `/ui/assets/${relative(join(out, 'assets'), join(root, file))}`;
  writeFileSync(
    indexFile,
    `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Switchyard</title>
${style ? `<link rel="stylesheet" href="${asset(style)}">\n` : ''}<script type="module" src="${asset(script)}"></script>
</head>
<body>
<div id="app"></div>
</body>
</html>
`,
  );
  writeFileSync(inputsFile, JSON.stringify(Object.keys(result.metafile.inputs)));
  return true;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const built = await buildDashboard({ force: process.argv.includes('--force') });
  process.stdout.write(built ? 'dashboard bundled into dist/ui\n' : 'dashboard up to date\n');
}
