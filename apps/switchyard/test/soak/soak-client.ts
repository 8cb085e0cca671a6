/** An answer of the service, parsed when it is JSON. */
export interface Answer {
  status: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- GitHub and API shapes, read field by field
  body: any;
  text: string;
}

/**
 * A team's view of one repository over HTTP: the sandbox forge's GitHub REST paths and Switchyard's
 * public API, with the admin key, against whatever process serves them.
 */
export class SoakClient {
  constructor(
    private readonly baseUrl: string,
    private readonly adminKey: string,
    readonly repository: string,
  ) {}

  async request(method: string, path: string, body?: unknown): Promise<Answer> {
    const response = await fetch(`${this.baseUrl}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${this.adminKey}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    const json = text !== '' && response.headers.get('content-type')?.includes('application/json');
    return { status: response.status, body: json ? JSON.parse(text) : text, text };
  }

  forge(method: string, path: string, body?: unknown): Promise<Answer> {
    return this.request(method, `/sandbox/github/repos/${this.repository}${path}`, body);
  }

  api(method: string, path: string, body?: unknown): Promise<Answer> {
    return this.request(method, `/v1/repos/${this.repository}${path}`, body);
  }

  /** Fails loudly on an unexpected status: the driver's own calls must succeed. */
  async expect(answer: Promise<Answer>, statuses: number[], what: string): Promise<Answer> {
    const got = await answer;
    if (!statuses.includes(got.status)) throw new Error(`${what}: ${got.status} ${got.text.slice(0, 500)}`);
    return got;
  }

  async commitFile(branch: string, path: string, text: string): Promise<void> {
    const existing = await this.forge('GET', `/contents/${path}?ref=${branch}`);
    await this.expect(
      this.forge('PUT', `/contents/${path}`, {
        message: `edit ${path}`,
        content: Buffer.from(text, 'utf8').toString('base64'),
        branch,
        ...(existing.status === 200 ? { sha: existing.body.sha } : {}),
      }),
      [200, 201],
      `commit ${path} on ${branch}`,
    );
  }

  /** The file's text on a branch, or null when it is not there. */
  async fileOn(branch: string, path: string): Promise<string | null> {
    const answer = await this.expect(
      this.forge('GET', `/contents/${path}?ref=${branch}`),
      [200, 404],
      `read ${path}`,
    );
    return answer.status === 404
      ? null
      : Buffer.from(answer.body.content as string, 'base64').toString('utf8');
  }

  async branchFromMain(branch: string): Promise<void> {
    const main = await this.expect(this.forge('GET', '/git/ref/heads/main'), [200], 'read main');
    await this.expect(
      this.forge('POST', '/git/refs', { ref: `refs/heads/${branch}`, sha: main.body.object.sha }),
      [201],
      `branch ${branch}`,
    );
  }

  async openPull(branch: string, title: string): Promise<number> {
    const opened = await this.expect(
      this.forge('POST', '/pulls', { title, head: branch, base: 'main' }),
      [201],
      `open ${branch}`,
    );
    return opened.body.number as number;
  }

  async addLabel(number: number, label: string): Promise<void> {
    await this.expect(
      this.forge('POST', `/issues/${number}/labels`, { labels: [label] }),
      [200],
      `label #${number}`,
    );
  }

  async removeLabel(number: number, label: string): Promise<void> {
    await this.expect(
      this.forge('DELETE', `/issues/${number}/labels/${label}`),
      [200, 404],
      `unlabel #${number}`,
    );
  }

  async comment(number: number, body: string): Promise<void> {
    await this.expect(
      this.forge('POST', `/issues/${number}/comments`, { body }),
      [201],
      `comment #${number}`,
    );
  }

  /** The body of the queue's status comment on the pull request, if it has one. */
  async statusComment(number: number): Promise<string | undefined> {
    const { body } = await this.expect(
      this.forge('GET', `/issues/${number}/comments?per_page=100`),
      [200],
      'comments',
    );
    return (body as { body: string }[])
      .map((comment) => comment.body)
      .find((text) => text.startsWith('<!-- switchyard:merge-queue-status'));
  }

  async merged(number: number): Promise<boolean> {
    const { body } = await this.expect(this.forge('GET', `/pulls/${number}`), [200], `pull #${number}`);
    return body.merged === true;
  }
}
