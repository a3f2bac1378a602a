import { describe, expect, it } from 'vitest';
import { listFailure } from './listState';

describe('listFailure', () => {
  it('blames the network only when nothing reached the server', () => {
    const http = (status: number, message: string) => Object.assign(new Error(message), { status });
    expect(listFailure(http(0, '网络连接失败，请检查网络后重试'))).toBe('列表加载失败：网络连接失败，请检查网络后重试');
    expect(listFailure(http(500, '服务器暂时无法处理，请稍后再试'))).toBe(
      '列表加载失败：服务器出错（500），请稍后重试',
    );
    expect(listFailure(http(502, 'Bad Gateway'))).not.toContain('网络');
    // A coded answer: what the server said, in its words; never English.
    expect(listFailure(Object.assign(new Error('没有权限'), { code: 403 }))).toBe('列表加载失败：没有权限');
    expect(listFailure(new Error('Failed to fetch'))).toBe('列表加载失败，请稍后重试');
  });
});
