import { CheckOutlined, MoonOutlined, SunOutlined } from '@ant-design/icons';
import { Button, Dropdown } from 'antd';
import { setThemeMode, type ThemeMode, themeModes, useScheme, useThemeMode } from '../components/theme';

/** Header switch: 跟随系统 / 浅色 / 深色, remembered in this browser. */
export function ThemeSwitch({ compact }: { compact?: boolean }) {
  const mode = useThemeMode();
  const scheme = useScheme();
  const label = themeModes.find((m) => m.value === mode)?.label ?? '';
  return (
    <Dropdown
      trigger={['click']}
      menu={{
        selectable: true,
        selectedKeys: [mode],
        items: themeModes.map(({ value, label: text }) => ({
          key: value,
          label: text,
          extra: value === mode ? <CheckOutlined aria-hidden /> : null,
        })),
        onClick: ({ key }) => setThemeMode(key as ThemeMode),
      }}
    >
      <Button
        type="text"
        className="admin-theme"
        aria-label={`界面主题：${label}`}
        icon={scheme === 'dark' ? <MoonOutlined aria-hidden /> : <SunOutlined aria-hidden />}
      >
        {compact ? null : '主题'}
      </Button>
    </Dropdown>
  );
}
