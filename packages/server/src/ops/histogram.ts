import type { Metric, MetricValue, Registry } from 'prom-client';

/** One labelled series: its labels, count, sum and (non-cumulative) bucket counts, the last one +Inf. */
export interface Series {
  labels: Record<string, string>;
  count: number;
  sum: number;
  buckets: Float64Array;
}

/**
 * A histogram for the hot path. prom-client's own validates and hashes the labels on every
 * observation (a few microseconds with four labels); here the caller keeps the series it got
 * once, and an observation is two additions and a short walk along the bounds. The exposition is
 * prom-client's, through a metric object the registry reads at scrape time.
 */
export class FastHistogram {
  private readonly all = new Map<string, Series>();

  constructor(
    private readonly name: string,
    private readonly help: string,
    private readonly bounds: number[],
  ) {}

  /** The series of these labels, made on first use; `key` must identify them (e.g. their values joined). */
  series(key: string, labels: () => Record<string, string>): Series {
    let found = this.all.get(key);
    if (!found) {
      found = { labels: labels(), count: 0, sum: 0, buckets: new Float64Array(this.bounds.length + 1) };
      this.all.set(key, found);
    }
    return found;
  }

  observe(series: Series, value: number): void {
    series.count += 1;
    series.sum += value;
    const bounds = this.bounds;
    let i = 0;
    while (i < bounds.length && value > bounds[i]) i += 1;
    series.buckets[i] += 1;
  }

  /** Registers the histogram, and optionally a counter `counterName` of the same series' counts. */
  register(registry: Registry, counter?: { name: string; help: string }): void {
    registry.registerMetric(this.metric('histogram', this.name, this.help, () => this.histogramValues()));
    if (counter) {
      const values = () => [...this.all.values()].map((s) => ({ labels: s.labels, value: s.count }));
      registry.registerMetric(this.metric('counter', counter.name, counter.help, values));
    }
  }

  private histogramValues(): MetricValue<string>[] {
    const values: MetricValue<string>[] = [];
    for (const s of this.all.values()) {
      let total = 0;
      for (let i = 0; i <= this.bounds.length; i++) {
        total += s.buckets[i];
        const le = i < this.bounds.length ? String(this.bounds[i]) : '+Inf';
        values.push({ labels: { ...s.labels, le }, value: total, metricName: `${this.name}_bucket` } as never);
      }
      values.push({ labels: s.labels, value: s.sum, metricName: `${this.name}_sum` } as never);
      values.push({ labels: s.labels, value: s.count, metricName: `${this.name}_count` } as never);
    }
    return values;
  }

  private metric(
    type: 'histogram' | 'counter',
    name: string,
    help: string,
    values: () => MetricValue<string>[],
  ): Metric<string> {
    const get = async () => ({ name, help, type, values: values(), aggregator: 'sum' });
    return { name, help, get, reset: () => this.all.clear() } as unknown as Metric<string>;
  }
}
