/**
 * `items.map(work)` with at most `pool` of them under way at once, the answers in the items' order: enough
 * side by side to keep the disk and the thread pool busy, never a file handle per item of a long list.
 */
export async function mapInPool<T, R>(items: readonly T[], pool: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const answers = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      answers[index] = await work(items[index] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(pool, items.length) }, worker));
  return answers;
}
