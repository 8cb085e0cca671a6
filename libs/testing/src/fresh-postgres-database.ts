import { whileServerFull } from '@switchyard/sql';
import { Pool } from 'pg';

export interface FreshDatabase {
  url: string;
  drop(): Promise<void>;
}

async function asAdmin(adminUrl: string, sql: string): Promise<void> {
  const admin = new Pool({ connectionString: adminUrl, max: 1 });
  try {
    // Another suite on the same server may hold every slot for a moment.
    await whileServerFull(() => admin.query(sql));
  } finally {
    await admin.end();
  }
}

/** A brand-new database `name` on the server of `adminUrl`, whatever an earlier run left behind. */
export async function freshPostgresDatabase(adminUrl: string, name: string): Promise<FreshDatabase> {
  await asAdmin(adminUrl, `DROP DATABASE IF EXISTS ${name}`);
  await asAdmin(adminUrl, `CREATE DATABASE ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => asAdmin(adminUrl, `DROP DATABASE IF EXISTS ${name}`) };
}
