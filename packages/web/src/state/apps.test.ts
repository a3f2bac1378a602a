import { describe, expect, it } from 'vitest';
import { appWords } from './apps';

describe('apps in words', () => {
  const words = appWords([
    { code: 'tailor', name: '滚动截屏', icon: '', enabled: true },
    { code: 'quote', name: '名言', icon: '', enabled: false },
  ]);

  it('shows an app by its name, never its code', () => {
    expect(words.nameOf('quote')).toBe('名言');
    expect(words.nameOf('tailor')).toBe('滚动截屏');
  });

  it('shows a code no app has as it is, and nothing for no code', () => {
    expect(words.nameOf('gone')).toBe('gone');
    expect(words.nameOf(null)).toBe('');
    expect(words.nameOf(undefined)).toBe('');
  });

  it('offers every app by name, a disabled one marked', () => {
    expect(words.options).toEqual([
      { value: 'tailor', label: '滚动截屏' },
      { value: 'quote', label: '名言（已停用）' },
    ]);
  });
});
