import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from './config-error';
import { loadConfig } from './load-config';

const pem = generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey.export({
  type: 'pkcs1',
  format: 'pem',
}) as string;

function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
}

describe('GitHub settings', () => {
  it('is sandbox mode without an App, keeping an explicit webhook secret', () => {
    expect(loadConfig({}).github).toEqual({ mode: 'sandbox', webhookSecret: null, apiUrl: null });
    expect(loadConfig({ SWITCHYARD_GITHUB_WEBHOOK_SECRET: 's3cret' }).github).toMatchObject({
      mode: 'sandbox',
      webhookSecret: 's3cret',
    });
  });

  it('is GitHub mode with an App ID, a key and a webhook secret, on api.github.com by default', () => {
    const github = loadConfig({
      SWITCHYARD_GITHUB_APP_ID: '12345',
      SWITCHYARD_GITHUB_PRIVATE_KEY: pem.replace(/\n/g, '\\n'),
      SWITCHYARD_GITHUB_WEBHOOK_SECRET: 'hook-secret',
    }).github;
    expect(github).toEqual({
      mode: 'github',
      appId: 12345,
      privateKey: pem.trim() + '\n',
      webhookSecret: 'hook-secret',
      apiUrl: 'https://api.github.com',
    });
  });

  it('reads the key from a file and points at a GitHub Enterprise Server', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'gh-key-')), 'app.pem');
    writeFileSync(file, pem);
    const github = loadConfig({
      SWITCHYARD_GITHUB_APP_ID: '7',
      SWITCHYARD_GITHUB_PRIVATE_KEY_FILE: file,
      SWITCHYARD_GITHUB_WEBHOOK_SECRET: 'x',
      SWITCHYARD_GITHUB_API_URL: 'https://ghes.example.com/api/v3/',
    }).github;
    expect(github).toMatchObject({ mode: 'github', apiUrl: 'https://ghes.example.com/api/v3' });
  });

  it('refuses a half-configured App at start-up', () => {
    expect(problemsOf({ SWITCHYARD_GITHUB_APP_ID: '1', SWITCHYARD_GITHUB_WEBHOOK_SECRET: 'x' })).toEqual([
      expect.stringContaining('SWITCHYARD_GITHUB_PRIVATE_KEY (or _FILE) is not'),
    ]);
    expect(problemsOf({ SWITCHYARD_GITHUB_PRIVATE_KEY: pem, SWITCHYARD_GITHUB_WEBHOOK_SECRET: 'x' })).toEqual(
      [expect.stringContaining('SWITCHYARD_GITHUB_APP_ID is not')],
    );
    expect(problemsOf({ SWITCHYARD_GITHUB_APP_ID: '1', SWITCHYARD_GITHUB_PRIVATE_KEY: pem })).toEqual([
      expect.stringContaining('SWITCHYARD_GITHUB_WEBHOOK_SECRET'),
    ]);
  });

  it('refuses a key that is not a PEM, a non-numeric ID and a bad URL', () => {
    const problems = problemsOf({
      SWITCHYARD_GITHUB_APP_ID: 'my-app',
      SWITCHYARD_GITHUB_PRIVATE_KEY: 'not a key',
      SWITCHYARD_GITHUB_WEBHOOK_SECRET: 'x',
      SWITCHYARD_GITHUB_API_URL: 'ftp://example.com',
    });
    expect(problems).toEqual([
      expect.stringContaining('PEM'),
      expect.stringContaining('https:// or http://'),
      expect.stringContaining('numeric ID'),
    ]);
  });
});
