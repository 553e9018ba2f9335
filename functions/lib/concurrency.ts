/** Runs `run` over the inputs `size` at a time (each group waits for the one before), answering the results in order. */
export async function inBatches<T, R>(inputs: readonly T[], size: number, run: (input: T) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  for (let start = 0; start < inputs.length; start += size) results.push(...(await Promise.all(inputs.slice(start, start + size).map(run))));
  return results;
}
