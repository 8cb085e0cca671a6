/** The sandbox forge's REST API for one repository, as a bench's user drives it over HTTP. */
export function forgeOf(baseUrl: string, adminKey: string, repository: string) {
  const forge = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${baseUrl}/sandbox/github/repos/${repository}${path}`, {
      method,
      headers: { authorization: `Bearer ${adminKey}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- GitHub shapes, read field by field
    return { status: response.status, body: (text ? JSON.parse(text) : null) as any };
  };
  const commit = async (branch: string, path: string, text: string) => {
    const put = await forge('PUT', `/contents/${path}`, {
      message: `add ${path}`,
      content: Buffer.from(text).toString('base64'),
      branch,
    });
    if (put.status !== 201) throw new Error(`commit ${path}: ${put.status}`);
  };
  /** Opens a pull request of one new file on a branch of its own; answers the forge's pull request. */
  const openChange = async (branch: string, path: string, text: string) => {
    const main = await forge('GET', '/git/ref/heads/main');
    await forge('POST', '/git/refs', { ref: `refs/heads/${branch}`, sha: main.body.object.sha });
    await commit(branch, path, text);
    const opened = await forge('POST', '/pulls', { title: branch, head: branch, base: 'main' });
    if (opened.status !== 201)
      throw new Error(`pull request ${branch}: ${opened.status} ${JSON.stringify(opened.body)}`);
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- GitHub shapes, read field by field
    return opened.body as Record<string, any>;
  };
  return { forge, commit, openChange };
}
