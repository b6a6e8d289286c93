import { APIPromise, type WithResponse } from './api-promise.js';

export interface PageBody<T> {
  data: T[];
  page: number;
  limit: number;
  total: number;
}

/** One page of a list, able to fetch the ones after it. */
export class Page<T> implements AsyncIterable<T> {
  readonly data: T[];
  readonly page: number;
  readonly limit: number;
  readonly total: number;

  constructor(
    body: PageBody<T>,
    readonly response: Response,
    private readonly fetchPage: (page: number) => Promise<WithResponse<Page<T>>>,
  ) {
    this.data = body.data;
    this.page = body.page;
    this.limit = body.limit;
    this.total = body.total;
  }

  /** The spec's rule: there is no next page once `page * limit >= total`. */
  hasNextPage(): boolean {
    return this.page * this.limit < this.total;
  }

  async nextPage(): Promise<Page<T>> {
    if (!this.hasNextPage()) throw new Error(`No page after page ${this.page} (page * limit >= total)`);
    return (await this.fetchPage(this.page + 1)).data;
  }

  /** This page and every later one, fetched lazily. */
  async *iterPages(): AsyncGenerator<Page<T>> {
    let current: Page<T> = this;
    yield current;
    while (current.hasNextPage()) {
      current = await current.nextPage();
      yield current;
    }
  }

  /** Every record from this page on, across pages. */
  async *[Symbol.asyncIterator](): AsyncGenerator<T> {
    for await (const page of this.iterPages()) yield* page.data;
  }
}

/** `await` it for the first page, or `for await` over it for every record across pages. */
export class PagePromise<T> extends APIPromise<Page<T>> implements AsyncIterable<T> {
  async *[Symbol.asyncIterator](): AsyncGenerator<T> {
    const first = await this;
    yield* first;
  }
}
