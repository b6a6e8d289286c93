import type { BaseClient } from './base-client.js';

/** Base of every generated resource: they all share their client's request pipeline. */
export abstract class APIResource {
  constructor(protected readonly _client: BaseClient) {}
}
