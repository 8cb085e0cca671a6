import { STREAM_LOCK_SPACE } from './append-function';

/**
 * The settled horizon: the transaction id below which the feed is complete, so readers take only
 * rows under it (architecture-anchors §2.3). It used to be the snapshot's xmin, the oldest
 * transaction running anywhere on the server: a session left idle in transaction in another
 * database, or a job writing a table of its own, held every reader back for as long as it stayed
 * open. Only transactions that append to this store can still add rows below a reader's snapshot,
 * so the horizon is the oldest of those, and it is the snapshot's xmax when none is in flight.
 *
 * Who appends: sy_append takes its stream's advisory lock (key space STREAM_LOCK_SPACE) before
 * anything gives its transaction an id, and holds it until the transaction ends. A transaction
 * running with an id but holding no such lock has therefore not appended, and never will (sy_append
 * refuses to run in a transaction that got its id first). The function reads the snapshot's running
 * ids (pg_snapshot_xip), then one view of the lock table (pg_locks, one consistent read of every
 * partition): a running id whose transaction holds its own transactionid lock and no stream lock is a
 * bystander and does not hold the horizon back. Every other running id does, conservatively:
 *  - an appender, holding or waiting for a stream lock;
 *  - one that ended between the snapshot and the lock read (its rows, if any, are not in the
 *    snapshot; the next read's snapshot no longer lists it);
 *  - one whose transactionid lock is not in the table yet (an id is published to snapshots a moment
 *    before its lock). At commit the transactionid lock is released before the advisory locks, so
 *    an appender never shows as a bystander on its way out either.
 * The caller's own id, if it has one, bounds the horizon as it bounded xmin.
 *
 * Why not the alternatives: Marten's high-water mark waits on gaps in the position sequence and
 * needs a staleness timeout for gaps that rolled-back appends leave, which either stalls or skips;
 * a table of in-flight appends costs a write (and an id) per append; pg_stat_activity.backend_xid
 * is read separately from pg_locks, and hidden from unprivileged roles. pg_locks needs no privilege.
 *
 * Cost: nothing more than before while no other transaction is running (PGlite always; an idle
 * server). Otherwise one read of the lock table per feed statement, which takes every lock
 * partition's lock in shared mode and copies the table (a few hundred rows on a busy server);
 * readers with wanted types in many branches share it (SETTLED_HORIZON_CTE). bench:eventstore
 * measures the read with a bystander transaction open beside it.
 *
 * STABLE, so it sees the calling statement's snapshot: the horizon and the rows come from one view.
 */
export const SETTLED_HORIZON_FUNCTION = `
CREATE OR REPLACE FUNCTION sy_settled_horizon() RETURNS xid8
LANGUAGE plpgsql STABLE AS $$
DECLARE
  v_snapshot pg_snapshot := pg_current_snapshot();
  v_horizon xid8 := pg_snapshot_xmax(v_snapshot);
BEGIN
  IF pg_snapshot_xmin(v_snapshot) < v_horizon THEN
    WITH locks AS MATERIALIZED (
      SELECT l.locktype, l.transactionid, l.virtualtransaction, l.classid, l.objsubid, l.database,
             l.mode, l.granted
      FROM pg_locks AS l WHERE l.locktype IN ('transactionid', 'advisory')),
    appenders AS (
      SELECT a.virtualtransaction FROM locks AS a
      WHERE a.locktype = 'advisory' AND a.classid = ${STREAM_LOCK_SPACE} AND a.objsubid = 2
        AND a.database = (SELECT d.oid FROM pg_database AS d WHERE d.datname = current_database())),
    bystanders AS (
      SELECT t.transactionid FROM locks AS t
      WHERE t.locktype = 'transactionid' AND t.mode = 'ExclusiveLock' AND t.granted
        AND t.virtualtransaction NOT IN (SELECT a.virtualtransaction FROM appenders AS a))
    SELECT least(v_horizon, min(x.id)) INTO v_horizon
    FROM pg_snapshot_xip(v_snapshot) AS x(id)
    WHERE x.id::xid NOT IN (SELECT b.transactionid FROM bystanders AS b);
  END IF;
  RETURN least(v_horizon, pg_current_xact_id_if_assigned());
END
$$;
`;

/**
 * The horizon computed once per statement: a filtered page has a branch per wanted type, and each
 * would otherwise evaluate it (and read the lock table) on its own. Put it in the statement's WITH.
 */
export const SETTLED_HORIZON_CTE = 'sy_settled AS MATERIALIZED (SELECT sy_settled_horizon() AS horizon)';

/** Rows no transaction can still commit behind; needs SETTLED_HORIZON_CTE in the statement's WITH. */
export const SETTLED = 'transaction_id < (SELECT sy_settled.horizon FROM sy_settled)';

/** The statement with the settled horizon in its WITH clause. */
export const withSettledHorizon = (statement: string): string => `WITH ${SETTLED_HORIZON_CTE}\n${statement}`;
