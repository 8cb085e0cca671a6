import type { LogEvent } from './queue-narrator';
import type { SwitchyardHttp } from './switchyard-http';

const CLOCK_MARGIN_MS = 5 * 60_000;

interface LogPage {
  events: LogEvent[];
}

/**
 * Reads a repository's activity log (GET /v1/repos/{owner}/{repo}/logs) and hands out each event
 * once, oldest first. The log lists newest first, in pages linked by cursor: each read walks back
 * until a page holds nothing new.
 */
export class ActivityLogReader {
  private readonly seen = new Set<number>();

  constructor(
    private readonly http: SwitchyardHttp,
    private readonly repository: string,
    /** Only events since then: the repository is new, so this is its whole story. */
    private readonly since: Date,
  ) {}

  /** The events not handed out yet, oldest first. */
  async readNew(): Promise<LogEvent[]> {
    const fresh: LogEvent[] = [];
    // An explicit window, a little wider than the demo's own clock says: the service's clock may
    // differ from it a little, and its default window ends at its own idea of now.
    const query = new URLSearchParams({
      per_page: '100',
      received_from: new Date(this.since.getTime() - CLOCK_MARGIN_MS).toISOString(),
      received_to: new Date(Date.now() + CLOCK_MARGIN_MS).toISOString(),
    });
    let path: string | null = this.http.v1Path(this.repository, `/logs?${query.toString()}`);
    while (path !== null) {
      const { body, next }: { body: LogPage; next: string | null } = await this.http.page<LogPage>(path);
      const unseen = body.events.filter((event) => !this.seen.has(event.id));
      fresh.push(...unseen);
      path = unseen.length === body.events.length ? next : null;
    }
    for (const event of fresh) this.seen.add(event.id);
    return fresh.sort((a, b) => a.received_at.localeCompare(b.received_at) || a.id - b.id);
  }
}
