import { scaledWait } from '@switchyard/testing';
import type { ProjectionLogger } from '../logger';

export interface LogEntry {
  level: 'info' | 'warn' | 'error';
  context: Record<string, unknown>;
  message: string;
}

/** Keeps what was logged, and lets a test wait for an entry instead of sleeping. */
export class RecordingLogger implements ProjectionLogger {
  readonly entries: LogEntry[] = [];
  private watchers: Array<{ matches: (entry: LogEntry) => boolean; resolve: (entry: LogEntry) => void }> = [];

  info(context: Record<string, unknown>, message: string): void {
    this.record({ level: 'info', context, message });
  }

  warn(context: Record<string, unknown>, message: string): void {
    this.record({ level: 'warn', context, message });
  }

  error(context: Record<string, unknown>, message: string): void {
    this.record({ level: 'error', context, message });
  }

  /**
   * The first entry (already logged or still to come) of that level whose message contains the text;
   * refused, naming what was logged instead, if none comes within the timeout.
   */
  entry(level: LogEntry['level'], text = '', timeoutMs = scaledWait(20_000)): Promise<LogEntry> {
    const matches = (entry: LogEntry) => entry.level === level && entry.message.includes(text);
    const logged = this.entries.find(matches);
    if (logged) return Promise.resolve(logged);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        const seen = this.entries.map((entry) => `${entry.level}: ${entry.message}`).join('; ');
        reject(new Error(`no ${level} entry containing '${text}' in ${timeoutMs} ms; logged: ${seen}`));
      }, timeoutMs).unref();
      this.watchers.push({
        matches,
        resolve: (entry) => {
          clearTimeout(timer);
          resolve(entry);
        },
      });
    });
  }

  private record(entry: LogEntry): void {
    this.entries.push(entry);
    const due = this.watchers.filter((watcher) => watcher.matches(entry));
    this.watchers = this.watchers.filter((watcher) => !watcher.matches(entry));
    for (const watcher of due) watcher.resolve(entry);
  }
}
