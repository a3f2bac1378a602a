import { describe, expect, it } from 'vitest';
import { nextSelection } from './BatchBar';

type Row = { id: number; name: string };
const a = { id: 1, name: '甲' };
const b = { id: 2, name: '乙' };
const c = { id: 3, name: '丙' };

describe('nextSelection', () => {
  it('keeps a row ticked on another page, which antd reports by key only', () => {
    const kept = new Map<number, Row>([[a.id, a]]);
    const next = nextSelection(kept, [1, 2], [undefined, b]);
    expect([...next.values()]).toEqual([a, b]);
  });

  it('drops an unticked row and a key it has never seen a row for', () => {
    const kept = new Map<number, Row>([
      [a.id, a],
      [b.id, b],
    ]);
    expect([...nextSelection(kept, [2, 9], [b, undefined]).keys()]).toEqual([2]);
    expect(nextSelection(kept, [], []).size).toBe(0);
  });

  it('takes the fresher row of this page over the one kept', () => {
    const kept = new Map<number, Row>([[c.id, c]]);
    const renamed = { ...c, name: '丙（已改名）' };
    expect(nextSelection(kept, [3], [renamed]).get(3)).toBe(renamed);
  });
});
