import { FileDoneOutlined } from '@ant-design/icons';
import { definePage } from '../../../layouts/pageDecl';

export default definePage({
  label: '内购记录',
  group: 'commerce',
  icon: FileDoneOutlined,
  order: 70,
});
