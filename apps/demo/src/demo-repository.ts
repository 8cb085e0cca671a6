import type { DemoChange } from './demo-scenario';
import type { SwitchyardHttp } from './switchyard-http';

/**
 * The demo's repository on the sandbox forge, driven through GitHub's REST paths as a team would
 * drive GitHub: commits through the contents API, branches through git refs, pull requests, labels.
 */
export class DemoRepository {
  constructor(
    private readonly http: SwitchyardHttp,
    readonly fullName: string,
  ) {}

  private path(path: string): string {
    return this.http.forgePath(this.fullName, path);
  }

  /** The first commit on main creates the repository. */
  async create(files: Readonly<Record<string, string>>): Promise<void> {
    for (const [path, text] of Object.entries(files)) await this.commitFile('main', path, text);
  }

  async commitFile(branch: string, path: string, text: string): Promise<void> {
    const ref = `?ref=${encodeURIComponent(branch)}`;
    const existing =
      (await this.http.status('GET', this.path(`/contents/${path}${ref}`))) === 200
        ? await this.http.call<{ sha: string }>('GET', this.path(`/contents/${path}${ref}`))
        : null;
    await this.http.call('PUT', this.path(`/contents/${path}`), {
      message: `Edit ${path}`,
      content: Buffer.from(text, 'utf8').toString('base64'),
      branch,
      ...(existing ? { sha: existing.sha } : {}),
    });
  }

  /** Branches from main, commits the change's files and opens its pull request: its number. */
  async open(change: DemoChange): Promise<number> {
    const main = await this.http.call<{ object: { sha: string } }>('GET', this.path('/git/ref/heads/main'));
    await this.http.call('POST', this.path('/git/refs'), {
      ref: `refs/heads/${change.name}`,
      sha: main.object.sha,
    });
    for (const [path, text] of Object.entries(change.files)) await this.commitFile(change.name, path, text);
    const pull = await this.http.call<{ number: number }>('POST', this.path('/pulls'), {
      title: change.title,
      head: change.name,
      base: 'main',
    });
    return pull.number;
  }

  async label(number: number, label: string): Promise<void> {
    await this.http.call('POST', this.path(`/issues/${number}/labels`), { labels: [label] });
  }

  async isMerged(number: number): Promise<boolean> {
    return (await this.http.call<{ merged: boolean }>('GET', this.path(`/pulls/${number}`))).merged;
  }
}
