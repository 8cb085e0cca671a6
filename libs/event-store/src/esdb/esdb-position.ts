import type { Position as EsdbPosition } from '@eventstore/db-client';
import type { Position } from '../types';

/**
 * An $all position is the pair (commit, prepare); both zero-padded to 20 digits (the width of a
 * 64-bit number), so comparing the strings compares the pairs and lexical order is global order.
 */
const WIDTH = 20;

export const encodeEsdbPosition = (position: EsdbPosition): Position =>
  `${position.commit.toString().padStart(WIDTH, '0')}:${position.prepare.toString().padStart(WIDTH, '0')}`;

export const decodeEsdbPosition = (position: Position): EsdbPosition => {
  const [commit, prepare] = position.split(':');
  if (!commit || !prepare || !/^\d+$/.test(commit) || !/^\d+$/.test(prepare)) {
    throw new Error(`Not an EventStoreDB position: ${position}`);
  }
  return { commit: BigInt(commit), prepare: BigInt(prepare) };
};
