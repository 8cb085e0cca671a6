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

  /** The first entry (already logged or still to come) of that level whose message contains the text. */
  entry(level: LogEntry['level'], text = ''): Promise<LogEntry> {
    const matches = (entry: LogEntry) => entry.level === level && entry.message.includes(text);
    const logged = this.entries.find(matches);
    if (logged) return Promise.resolve(logged);
    return new Promise((resolve) => this.watchers.push({ matches, resolve }));
  }

  private record(entry: LogEntry): void {
    this.entries.push(entry);
    const due = this.watchers.filter((watcher) => watcher.matches(entry));
    this.watchers = this.watchers.filter((watcher) => !watcher.matches(entry));
    for (const watcher of due) watcher.resolve(entry);
  }
}
