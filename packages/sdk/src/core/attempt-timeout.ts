/**
 * An attempt ran out of time: `response` when no response headers came within the call's `responseTimeout`
 * (a dead link, a server that accepted the connection and says nothing), `attempt` when the whole attempt,
 * reading the body included, outlasted its `timeout`. `ms` is the limit that ran out, when known.
 */
export class AttemptTimeout extends Error {
  override name = 'AttemptTimeout';
  constructor(
    readonly phase: 'response' | 'attempt' = 'attempt',
    readonly ms?: number,
  ) {
    super(phase === 'response' ? 'No response came in time' : 'The attempt ran out of time');
  }
}
