import { FundOutlined } from '@ant-design/icons';
import { definePage } from '../../../layouts/pageDecl';

export default definePage({
  label: '推广记录',
  group: 'commerce',
  icon: FundOutlined,
  order: 110,
});
