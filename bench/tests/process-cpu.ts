import { readdirSync, readFileSync } from 'node:fs';

/** Linux's USER_HZ: /proc/<pid>/stat counts CPU time in these ticks. */
const TICKS_PER_SECOND = 100;

/**
 * CPU seconds (user + system) of each process, from /proc; a process that is gone reads as absent.
 * On a shared machine, CPU time is steadier than wall time: other agents' load stretches the wall
 * clock of both sides of a comparison, but not (much) the CPU each side spends.
 */
export function cpuSeconds(pids: readonly number[]): Map<number, number> {
  const seconds = new Map<number, number>();
  for (const pid of pids) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      // Fields after the parenthesised command name: state is the first, utime the 12th, stime the 13th.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      seconds.set(pid, (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND);
    } catch {
      // exited, or no /proc on this system
    }
  }
  return seconds;
}

/** Processes whose parent is this one (the app process the bench started). */
export function childPids(): number[] {
  try {
    return readdirSync('/proc')
      .filter((entry) => /^\d+$/.test(entry))
      .map(Number)
      .filter((pid) => {
        try {
          const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
          return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === process.pid;
        } catch {
          return false;
        }
      });
  } catch {
    return [];
  }
}

/**
 * CPU spent by a set of processes between start and stop; the set is asked for again at stop, so
 * processes that appeared meanwhile count whole. One that exited in between is missed (an
 * undercount of our side), and PostgreSQL's shared helpers (WAL writer, checkpointer) are not in it.
 */
export async function meterCpu(pids: () => Promise<number[]>): Promise<() => Promise<number>> {
  const before = cpuSeconds(await pids());
  return async () => {
    let total = 0;
    for (const [pid, seconds] of cpuSeconds(await pids())) total += seconds - (before.get(pid) ?? 0);
    return total;
  };
}

/** The machine's CPU time so far, idle and in all (the first line of /proc/stat), in ticks. */
function machineTicks(): { idle: number; total: number } | null {
  try {
    const fields = readFileSync('/proc/stat', 'utf8')
      .split('\n', 1)[0]!
      .trim()
      .split(/\s+/)
      .slice(1)
      .map(Number);
    // user nice system idle iowait irq softirq steal …: idle and iowait are the machine waiting.
    return { idle: fields[3]! + fields[4]!, total: fields.reduce((sum, ticks) => sum + ticks, 0) };
  } catch {
    return null;
  }
}

/**
 * The share of the machine's CPU left idle between start and stop (null without /proc): what a
 * side that should keep every core busy left unused.
 */
export function meterIdle(): () => number | null {
  const before = machineTicks();
  return () => {
    const after = machineTicks();
    if (!before || !after || after.total === before.total) return null;
    return (after.idle - before.idle) / (after.total - before.total);
  };
}
