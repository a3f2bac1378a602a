import { describe, expect, it } from 'vitest';
import { successNotice } from './hooks';

describe('the notice after a successful write', () => {
  it('is the server message unless the page says otherwise', () => {
    expect(successNotice(undefined, null, '帮助文章已创建')).toEqual({ title: '帮助文章已创建' });
  });

  it('is the page’s own words, or built from the answer, when the page gives them', () => {
    expect(successNotice('负责人已更新', null, '已分配')).toEqual({ title: '负责人已更新' });
    expect(successNotice((n: number) => ({ title: `已发送 ${n} 条` }), 3, '已发送')).toEqual({ title: '已发送 3 条' });
  });

  it('is nothing when the page says false, or the server said only the generic 成功', () => {
    expect(successNotice(false, null, '已读')).toBeNull();
    expect(successNotice(undefined, null, '成功')).toBeNull();
    expect(successNotice(undefined, null, '')).toBeNull();
  });
});
