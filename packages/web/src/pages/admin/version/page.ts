import { RocketOutlined } from '@ant-design/icons';
import { definePage } from '../../../layouts/pageDecl';

export default definePage({
  label: '版本管理',
  group: 'release',
  icon: RocketOutlined,
  order: 30,
});
