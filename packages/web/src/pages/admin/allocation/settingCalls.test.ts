/** Which changes of the 站点配置 form become which calls (docs/spec-notes.md#7-requests: one call per setting). */
import { describe, expect, it } from 'vitest';
import { type Settings, settingCalls } from './settingCalls';

const loaded: Settings = {
  title: '滚动截屏',
  slogen: '长截图，一步到位',
  qq: '12345678',
  about: '我们是一家小团队。\n',
  icp: '',
  police: '',
  androidUrl: '',
  iosUrl: '',
  agreement: '',
  privacy: '',
};

describe('saving the site settings', () => {
  it('sends nothing when nothing changed (spacing trimmed away is no change)', () => {
    expect(settingCalls(loaded, { ...loaded, title: ' 滚动截屏 ', qq: '12345678 ' })).toEqual([]);
  });

  it('sends each changed spec setting through its own call, in the API’s order: title, QQ, slogan, about', () => {
    const values = { ...loaded, about: '新的介绍', slogen: ' 新标语 ', qq: '87654321', title: '新标题' };
    expect(settingCalls(loaded, values)).toEqual([
      { path: '/api/allocation/update/title', input: { title: '新标题' } },
      { path: '/api/allocation/update/qq/account', input: { qq: '87654321' } },
      { path: '/api/allocation/update/slogen', input: { slogen: '新标语' } },
      { path: '/api/allocation/update/about', input: { about: '新的介绍' } },
    ]);
  });

  it('sends only what changed, and the settings without a call of their own together, last', () => {
    const values = { ...loaded, qq: '', icp: ' 京ICP备12345678号-1 ', agreement: '# 用户协议\n' };
    expect(settingCalls(loaded, values)).toEqual([
      { path: '/api/allocation/update/qq/account', input: { qq: '' } },
      { path: '/api/allocation/update', input: { icp: '京ICP备12345678号-1', agreement: '# 用户协议\n' } },
    ]);
  });

  it('keeps the about text as typed (its line breaks are content)', () => {
    expect(settingCalls(loaded, { ...loaded, about: '  第一段\n\n第二段\n' })).toEqual([
      { path: '/api/allocation/update/about', input: { about: '  第一段\n\n第二段\n' } },
    ]);
  });
});
