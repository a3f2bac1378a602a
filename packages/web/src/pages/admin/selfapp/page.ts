import { AppstoreOutlined } from '@ant-design/icons';
import { definePage } from '../../../layouts/pageDecl';

export default definePage({
  label: '自家应用',
  group: 'commerce',
  icon: AppstoreOutlined,
  order: 100,
});
