/**
 * The client went away before its request body arrived. Nothing can be answered and nothing went wrong on
 * the server: the request log's `request aborted` line is the whole record of it.
 */
export class RequestAborted extends Error {
  constructor() {
    super('The client closed the connection before its request body arrived');
    this.name = 'RequestAborted';
  }
}
