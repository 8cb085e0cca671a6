import { ConfigError } from './config-error';
import { loadConfig } from './load-config';

describe('loadConfig', () => {
  it('gives the documented defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 8080,
      dataDir: './.switchyard',
      databaseUrl: null,
      account: { login: 'local', id: null },
      adminKey: null,
      logLevel: 'info',
      logFormat: 'auto',
    });
  });

  it('reads LOG_FORMAT, and refuses a format it does not know', () => {
    expect(loadConfig({ LOG_FORMAT: 'json' }).logFormat).toBe('json');
    expect(loadConfig({ LOG_FORMAT: 'pretty' }).logFormat).toBe('pretty');
    expect(() => loadConfig({ LOG_FORMAT: 'yaml' })).toThrow(/LOG_FORMAT must be one of auto, pretty, json/);
  });

  it('reads every variable', () => {
    const config = loadConfig({
      PORT: '9000',
      SWITCHYARD_DATA_DIR: '/var/lib/sy',
      DATABASE_URL: 'postgres://u@db:5432/sy',
      REDIS_URL: 'redis://cache:6379',
      SWITCHYARD_ACCOUNT: 'acme',
      SWITCHYARD_ACCOUNT_ID: '42',
      SWITCHYARD_ADMIN_KEY: '0123456789abcdef',
      SWITCHYARD_HOST_TOKENS: JSON.stringify({
        ghp_x: { user: { id: 7, login: 'octo' }, accounts: ['acme'] },
      }),
    });
    expect(config.port).toBe(9000);
    expect(config.account).toEqual({ login: 'acme', id: 42 });
    expect(config.hostTokens.ghp_x).toEqual({ user: { id: 7, login: 'octo' }, accounts: ['acme'] });
  });

  it('lists every problem at once', () => {
    let error: unknown;
    try {
      loadConfig({
        PORT: 'eighty',
        SWITCHYARD_ADMIN_KEY: 'short',
        DATABASE_URL: 'mysql://x',
        LOG_LEVEL: 'loud',
      });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems.join('\n');
    expect(problems).toMatch(/PORT/);
    expect(problems).toMatch(/SWITCHYARD_ADMIN_KEY/);
    expect(problems).toMatch(/DATABASE_URL/);
    expect(problems).toMatch(/LOG_LEVEL/);
  });

  it('refuses malformed host tokens', () => {
    expect(() => loadConfig({ SWITCHYARD_HOST_TOKENS: '{"t": {"user": 1}}' })).toThrow(ConfigError);
    expect(() => loadConfig({ SWITCHYARD_HOST_TOKENS: 'not json' })).toThrow(/not valid JSON/);
  });
});
