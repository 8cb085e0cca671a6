import { encodeSqlPosition } from '../position';
import { wakeHintOf } from './wake-hint';

describe('wakeHintOf', () => {
  it('reads the types and the position sy_append announces', () => {
    expect(wakeHintOf('{"x":"812","g":"40","t":["merge_queue.paused"]}')).toEqual({
      types: ['merge_queue.paused'],
      position: encodeSqlPosition('812', '40'),
    });
  });

  it('says nothing about an empty or foreign payload, so that every reader looks', () => {
    expect(wakeHintOf('')).toBeUndefined();
    expect(wakeHintOf('not json')).toBeUndefined();
    expect(wakeHintOf('{"x":"1","g":"-2","t":[]}')).toBeUndefined();
    expect(wakeHintOf('{"x":"1","g":"2","t":[3]}')).toBeUndefined();
  });
});
