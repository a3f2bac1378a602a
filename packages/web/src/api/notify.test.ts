/** How long error notifications stay (docs/spec-notes.md#9-presentation-and-timings: 1.5 s in the console, the widget's 4.5 s elsewhere). */
import { describe, expect, it } from 'vitest';
import { actionErrorSeconds, errorArgs, notificationDefaults } from './notify';

describe('an error notification', () => {
  it('closes with the layout’s notices: it names no duration of its own', () => {
    const args = errorArgs({ title: '列表加载失败', description: '服务器内部错误' });
    expect('duration' in args).toBe(false);
  });

  it('answering the operator’s refused action stays the widget’s default 4.5 s, and still closes', () => {
    const args = errorArgs({ title: '原密码不正确' }, { action: true });
    expect(args.duration).toBe(4.5);
    expect(actionErrorSeconds).toBe(notificationDefaults.duration);
  });

  it('replaces the same error instead of stacking it', () => {
    expect(errorArgs({ title: 'a', description: 'b' }).key).toBe(errorArgs({ title: 'a', description: 'b' }).key);
    expect(errorArgs({ title: 'a', description: 'b' }).key).not.toBe(errorArgs({ title: 'a', description: 'c' }).key);
  });
});
