import { parseMergifyCommand } from './mergify-command';

describe('parseMergifyCommand', () => {
  it.each([
    ['@mergifyio queue', { command: 'queue', argument: null }],
    ['@Mergifyio queue hotfix', { command: 'queue', argument: 'hotfix' }],
    ['@mergify queue  default  \nthanks!', { command: 'queue', argument: 'default' }],
    ['@MERGIFY dequeue', { command: 'dequeue', argument: null }],
    ['@mergifyio requeue', { command: 'requeue', argument: null }],
    ['@mergifyio requeue hotfix', { command: 'requeue', argument: 'hotfix' }],
    ['@mergifyio dequeue now', { command: 'dequeue', argument: null }],
    ['@mergifyio refresh\r\nplease', { command: 'refresh', argument: null }],
  ])('reads %j', (body, expected) => {
    expect(parseMergifyCommand(body)).toEqual(expected);
  });

  it.each([
    'please @mergifyio queue',
    ' @mergifyio queue',
    '@mergifyio  queue',
    '@mergifyio',
    '@mergifyio rebase',
    '@mergifyiox queue',
    'LGTM\n@mergifyio queue',
  ])('ignores %j', (body) => {
    expect(parseMergifyCommand(body)).toBeNull();
  });
});
