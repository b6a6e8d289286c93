import pRetry, { AbortError, type Options } from 'p-retry';

/**
 * `pRetry(attempt, { retries, signal, ...retryOptions() })`, except that the first attempt runs before p-retry
 * is called and before the retry options are built: most calls succeed at once and then never pay for the
 * retry loop. A first attempt that fails is handed to p-retry as its own first attempt, so every failure
 * meets the same `shouldRetry`, `onFailedAttempt`, delays and abort handling as before. What p-retry checks
 * before its first attempt is checked here first, the same way.
 */
export async function retryAfterFirstAttempt<T>(
  attempt: (attemptNumber: number) => Promise<T>,
  retries: number,
  signal: AbortSignal | undefined,
  retryOptions: () => Options,
): Promise<T> {
  const options = () => ({ ...retryOptions(), retries, ...(signal ? { signal } : {}) });
  // A count p-retry refuses is refused by p-retry, before any request, as it always was.
  if (!(typeof retries === 'number' && retries >= 0)) return pRetry(attempt, options());
  signal?.throwIfAborted();
  let failure: unknown;
  try {
    const result = await attempt(1);
    // p-retry discards a result that arrives after the abort.
    signal?.throwIfAborted();
    return result;
  } catch (error) {
    if (error instanceof AbortError) throw error.originalError;
    failure = error;
  }
  return pRetry((attemptNumber) => (attemptNumber === 1 ? Promise.reject(failure) : attempt(attemptNumber)), options());
}
