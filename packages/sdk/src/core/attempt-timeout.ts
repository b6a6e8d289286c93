/** An attempt's time (the call's `timeout`) ran out, waiting for the response or reading its body. */
export class AttemptTimeout extends Error {
  override name = 'AttemptTimeout';
  constructor() {
    super('The attempt ran out of time');
  }
}
