import { SettingOutlined } from '@ant-design/icons';
import { definePage } from '../../../layouts/pageDecl';

export default definePage({
  label: '站点配置',
  group: 'system',
  icon: SettingOutlined,
  order: 240,
});
