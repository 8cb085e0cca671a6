import { render } from 'preact-render-to-string';
import { api } from '../api';
import { Problem } from './problem';

/** The error `api()` throws for an answer of this status and body. */
async function refusal(status: number, body: unknown): Promise<unknown> {
  const answer = new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json' },
  });
  jest.spyOn(globalThis, 'fetch').mockResolvedValueOnce(answer);
  return api('GET', '/v1/repos/acme/shop/merge-queue/status?branch=main').catch((error: unknown) => error);
}

describe('Problem', () => {
  afterEach(() => jest.restoreAllMocks());

  it("shows an API refusal as its status and the API's own detail, as an alert", async () => {
    const html = render(<Problem error={await refusal(409, { detail: 'The merge queue is paused' })} />);
    expect(html).toBe('<p class="error" role="alert">409: The merge queue is paused</p>');
  });

  it('says a 403 was refused, with the detail', async () => {
    const error = await refusal(403, { detail: 'This key may not dequeue pull requests' });
    expect(render(<Problem error={error} />)).toContain(
      'Refused (403): This key may not dequeue pull requests',
    );
  });

  it("lists a 422's validation issues where they are", async () => {
    const error = await refusal(422, {
      detail: [{ loc: ['body', 'reason'], msg: 'field required', type: 'value_error.missing' }],
    });
    expect(render(<Problem error={error} />)).toContain('422: body.reason: field required');
  });

  it('shows any other failure as its message', () => {
    expect(render(<Problem error={new TypeError('Failed to fetch')} />)).toContain(
      '>TypeError: Failed to fetch</p>',
    );
  });
});
