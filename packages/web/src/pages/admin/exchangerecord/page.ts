import { SwapOutlined } from '@ant-design/icons';
import { definePage } from '../../../layouts/pageDecl';

export default definePage({
  label: '兑换记录',
  group: 'commerce',
  icon: SwapOutlined,
  order: 90,
});
