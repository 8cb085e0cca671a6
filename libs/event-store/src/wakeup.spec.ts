import { Wakeup } from './wakeup';

const HOUR = 3_600_000;

describe('Wakeup', () => {
  it('does not sleep through a notify that came between taking the token and waiting', async () => {
    const wakeup = new Wakeup();
    const token = wakeup.current();
    wakeup.notify();
    await wakeup.wait(token, new AbortController().signal, HOUR);
  });

  it("one waiter waking does not swallow another waiter's notification", async () => {
    const wakeup = new Wakeup();
    const signal = new AbortController().signal;
    const first = wakeup.current();
    const second = wakeup.current();
    const waiting = wakeup.wait(first, signal, HOUR);
    wakeup.notify();
    await waiting;
    await wakeup.wait(second, signal, HOUR);
  });

  it('ends a wait when the signal aborts', async () => {
    const wakeup = new Wakeup();
    const controller = new AbortController();
    const waiting = wakeup.wait(wakeup.current(), controller.signal, HOUR);
    controller.abort();
    await waiting;
  });
});
