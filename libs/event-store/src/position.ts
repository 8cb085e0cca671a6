import type { Position } from './types';

/**
 * SQL adapters encode a position as the pair (transaction id, global position), each zero-padded
 * to 20 digits, so that string order equals the order of the pair (architecture-anchors §2.3).
 */
const WIDTH = 20;

export const encodeSqlPosition = (
  transactionId: string | bigint,
  globalPosition: string | bigint,
): Position =>
  `${transactionId.toString().padStart(WIDTH, '0')}:${globalPosition.toString().padStart(WIDTH, '0')}`;

export const decodeSqlPosition = (
  position: Position | 'start',
): { transactionId: string; globalPosition: string } => {
  if (position === 'start') return { transactionId: '0', globalPosition: '0' };
  const [xid, gp] = position.split(':');
  if (!xid || !gp || !/^\d+$/.test(xid) || !/^\d+$/.test(gp))
    throw new Error(`Not a SQL position: ${position}`);
  return { transactionId: BigInt(xid).toString(), globalPosition: BigInt(gp).toString() };
};

/** Negative when a comes first; 'start' precedes every position. */
export const comparePositions = (a: Position | 'start', b: Position | 'start'): number => {
  if (a === b) return 0;
  if (a === 'start') return -1;
  if (b === 'start') return 1;
  return a < b ? -1 : 1;
};

export const isAtOrAfter = (position: Position | 'start', target: Position | 'start'): boolean =>
  comparePositions(position, target) >= 0;
