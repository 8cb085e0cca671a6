import type { RecordedEvent } from '@switchyard/event-store';
import type { SqlExecutor } from '@switchyard/sql';
import { describeEachDatabase } from '@switchyard/testing';
import { AUTH_CREDENTIALS_TABLE, AuthCredentialsProjection } from './auth-credentials.projection';
import { CredentialReadModel } from './credential-read-model';

let position = 0;
const recorded = (type: string, data: object): RecordedEvent => {
  position++;
  return {
    streamId: `s-${position}`,
    revision: 0n,
    position: String(position).padStart(20, '0'),
    eventId: `e-${position}`,
    type,
    schemaVersion: 1,
    data,
    metadata: {},
    recordedAt: new Date('2026-05-01T00:00:00Z'),
  };
};

const keyId = '6f9d3c1e-2b4a-4c8e-9f10-1a2b3c4d5e6f';
const tokenId = '0b5e7c4a-93f1-4d2e-8a6b-7c8d9e0f1a2b';
const keyCreated = recorded('application_key.created', {
  key_id: keyId,
  name: 'ci bot',
  scope: 'ci',
  account: { id: 3000000000, login: 'Acme' },
  secret_hash: 'a'.repeat(64),
  created_at: '2026-05-01T10:00:00.000Z',
});
const keyRevoked = recorded('application_key.revoked', {
  key_id: keyId,
  revoked_at: '2026-05-02T00:00:00.000Z',
});
const keyRevokedAgainLater = recorded('application_key.revoked', {
  key_id: keyId,
  revoked_at: '2026-06-01T00:00:00.000Z',
});
const tokenIssued = recorded('service_token.issued', {
  token_id: tokenId,
  name: 'grafana',
  account: { id: 42, login: 'acme' },
  secret_hash: 'b'.repeat(64),
  issued_at: '2026-05-01T10:00:00.000Z',
  expires_at: '2026-05-31T10:00:00.000Z',
});

describeEachDatabase('AuthCredentialsProjection', (database) => {
  let sql: SqlExecutor;
  const projection = new AuthCredentialsProjection();
  const readModel = () => new CredentialReadModel(sql);
  const rows = async () => (await sql.query(`SELECT * FROM ${AUTH_CREDENTIALS_TABLE} ORDER BY id`)).rows;

  // One database per suite (opening PGlite costs seconds); each test starts from an empty table.
  beforeAll(async () => {
    sql = await database.open();
    await projection.setup(sql);
    await projection.setup(sql); // idempotent
  });
  beforeEach(() => sql.transaction((tx) => projection.reset(tx)));
  afterAll(() => sql.close());

  it('reads only credential events', () => {
    expect([...projection.eventTypes].sort()).toEqual([
      'application_key.created',
      'application_key.revoked',
      'service_token.issued',
      'service_token.revoked',
    ]);
  });

  it('finds a key by the hash of its secret, with its account id intact beyond 2^31', async () => {
    await sql.transaction((tx) => projection.apply(tx, [keyCreated]));
    expect(await readModel().findBySecretHash('a'.repeat(64))).toEqual({
      kind: 'application_key',
      id: keyId,
      name: 'ci bot',
      scope: 'ci',
      account: { id: 3000000000, login: 'Acme' },
      createdAt: new Date('2026-05-01T10:00:00Z'),
      expiresAt: null,
      revoked: false,
      revokedAt: null,
    });
    expect(await readModel().findBySecretHash('f'.repeat(64))).toBeNull();
  });

  it('keeps revoked credentials, marked, with the first revocation time', async () => {
    await sql.transaction((tx) => projection.apply(tx, [keyCreated, keyRevoked, keyRevokedAgainLater]));
    const record = await readModel().findById(keyId);
    expect(record).toMatchObject({ revoked: true, revokedAt: new Date('2026-05-02T00:00:00Z') });
  });

  it('stores service tokens with their expiry and no scope', async () => {
    await sql.transaction((tx) => projection.apply(tx, [tokenIssued]));
    expect(await readModel().findBySecretHash('b'.repeat(64))).toMatchObject({
      kind: 'service_token',
      id: tokenId,
      scope: null,
      expiresAt: new Date('2026-05-31T10:00:00Z'),
    });
    expect(await readModel().list('service_token')).toHaveLength(1);
    expect(await readModel().list('application_key')).toHaveLength(0);
    expect(await readModel().hasAnyApplicationKey()).toBe(false);
  });

  it('changes nothing when the same events are applied twice', async () => {
    const events = [keyCreated, tokenIssued, keyRevoked];
    await sql.transaction((tx) => projection.apply(tx, events));
    const once = await rows();
    await sql.transaction((tx) => projection.apply(tx, events));
    expect(await rows()).toEqual(once);
    expect(once).toHaveLength(2);
  });

  it('looks secrets up through the primary-key index', async () => {
    // A near-empty table is cheaper to scan; forbidding the scan shows the index exists and fits.
    const plan = await sql.transaction(async (tx) => {
      await tx.exec('SET LOCAL enable_seqscan = off');
      const { rows } = await tx.query<{ 'QUERY PLAN': string }>(
        `EXPLAIN SELECT * FROM ${AUTH_CREDENTIALS_TABLE} WHERE secret_hash = $1`,
        ['a'.repeat(64)],
      );
      return rows.map((row) => row['QUERY PLAN']).join('\n');
    });
    expect(plan).toMatch(/Index (Only )?Scan using auth_credentials_pkey/);
  });

  it('empties on reset', async () => {
    await sql.transaction((tx) => projection.apply(tx, [keyCreated]));
    await sql.transaction((tx) => projection.reset(tx));
    expect(await rows()).toEqual([]);
  });
});
