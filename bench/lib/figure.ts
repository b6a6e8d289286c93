/**
 * One benchmark result. `value` and `floor` are measured in the same run on the same machine, and the
 * target applies to their ratio, so a busy machine slows both sides rather than failing the figure
 * (memory alone has an absolute limit; its floor shows how much of it the process needs idle).
 */
export interface Figure {
  id: string;
  title: string;
  unit: string;
  value: number;
  floor: number;
  /** value / floor. */
  ratio: number;
  /** `>=` when more is better (throughput), `<=` when less is (latency, memory). */
  comparison: '>=' | '<=';
  target: number;
  /** What the target applies to: the ratio (default), or the value itself for absolute limits (memory). */
  targetOn?: 'ratio' | 'value';
  met: boolean;
  /** What the floor is, in words. */
  floorIs: string;
  details?: Record<string, number | string>;
}

export function figure(input: Omit<Figure, 'ratio' | 'met'>): Figure {
  const ratio = input.floor === 0 ? Number.POSITIVE_INFINITY : input.value / input.floor;
  const rounded = Math.round(ratio * 1000) / 1000;
  const checked = input.targetOn === 'value' ? input.value : rounded;
  const met = input.comparison === '>=' ? checked >= input.target : checked <= input.target;
  return { ...input, value: round(input.value), floor: round(input.floor), ratio: rounded, met };
}

export const round = (n: number) => (Math.abs(n) >= 100 ? Math.round(n) : Math.round(n * 100) / 100);

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}
