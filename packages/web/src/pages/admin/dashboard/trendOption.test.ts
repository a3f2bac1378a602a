import { describe, expect, it } from 'vitest';
import { trendOption } from './trendOption';

describe('trend charts', () => {
  it('draw straight lines, so days without a value stay at zero between the points', () => {
    const data = {
      unit: 'day',
      labels: ['2026-11-23', '2026-11-24', '2026-11-25', '2026-11-26'],
      series: { signups: [5, 0, 0, 5], active: [3, 0, 0, 3], orders: [0, 0, 0, 0], revenue: [0, 0, 0, 0] },
      byChannel: [],
      topItems: [],
      generatedAt: new Date().toISOString(),
      maxAgeSeconds: 60,
    } as unknown as Parameters<typeof trendOption>[0];
    const option = trendOption(data, [
      { name: '新增用户', values: data.series.signups },
      { name: '活跃用户', values: data.series.active },
    ]);
    for (const s of option.series) {
      expect(s.smooth, s.name).toBe(false);
      expect(s.data).toEqual(s.name === '新增用户' ? [5, 0, 0, 5] : [3, 0, 0, 3]);
    }
  });
});
