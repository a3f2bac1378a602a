import { KeyOutlined } from '@ant-design/icons';
import { definePage } from '../../../layouts/pageDecl';

export default definePage({
  label: '键值配置',
  group: 'release',
  icon: KeyOutlined,
  order: 160,
});
