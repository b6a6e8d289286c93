import { ConnectionError, InternalServerError, TimeoutError } from '@vsf/sdk';
import { describe, expect, it } from 'vitest';
import { responseTimeoutMs, waitingForNetwork } from './network-wait.js';

describe('responseTimeoutMs', () => {
  it('is 4 s unless VSF_RESPONSE_TIMEOUT gives seconds', () => {
    expect(responseTimeoutMs({})).toBe(4_000);
    // A command with its own default (sync's) keeps it unless the variable is set.
    expect(responseTimeoutMs({}, 30_000)).toBe(30_000);
    expect(responseTimeoutMs({ VSF_RESPONSE_TIMEOUT: '2' }, 30_000)).toBe(2_000);
    expect(responseTimeoutMs({ VSF_RESPONSE_TIMEOUT: '0.5' })).toBe(500);
    expect(responseTimeoutMs({ VSF_RESPONSE_TIMEOUT: ' 30 ' })).toBe(30_000);
  });

  it('refuses what is not a number of seconds, saying what it wants', () => {
    for (const bad of ['0', '-1', 'fast', '4s', '7200'])
      expect(() => responseTimeoutMs({ VSF_RESPONSE_TIMEOUT: bad })).toThrow(
        /VSF_RESPONSE_TIMEOUT must be a number of seconds between 0 and 3600/,
      );
  });
});

describe('waitingForNetwork', () => {
  const terminal = (isTTY: boolean) => {
    const lines: string[] = [];
    const stream = { isTTY, write: (line: string) => lines.push(line) } as unknown as NodeJS.WriteStream;
    return { lines, stream };
  };
  const notice = (error: Error) => ({ method: 'GET', url: 'http://x/api/v1/cars', attempt: 1, delayMs: 420, error });
  const deadLink = new TimeoutError('GET http://x/api/v1/cars timed out after 4000 ms waiting for the response');

  it('says "waiting for network…" on a terminal with the cause and the wait', () => {
    const { lines, stream } = terminal(true);
    waitingForNetwork({}, stream)(notice(deadLink));
    waitingForNetwork({}, stream)(notice(new ConnectionError('GET x failed: connection refused')));
    expect(lines).toEqual([
      'waiting for network… (no response within 4 s; trying again in 0.4 s)\n',
      expect.stringMatching(/^waiting for network… \(.+; trying again in 0\.4 s\)\n$/),
    ]);
  });

  it('says nothing off a terminal, with --quiet, or when the server answered (a 503 is not the network)', () => {
    const off = terminal(false);
    waitingForNetwork({}, off.stream)(notice(deadLink));
    const quiet = terminal(true);
    waitingForNetwork({ quiet: true }, quiet.stream)(notice(deadLink));
    const answered = terminal(true);
    waitingForNetwork({}, answered.stream)(notice(new InternalServerError('down', { status: 503 })));
    expect([off.lines, quiet.lines, answered.lines]).toEqual([[], [], []]);
  });
});
