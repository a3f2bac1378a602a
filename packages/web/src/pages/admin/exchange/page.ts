import { GiftOutlined } from '@ant-design/icons';
import { definePage } from '../../../layouts/pageDecl';

export default definePage({
  label: '兑换商品',
  group: 'commerce',
  icon: GiftOutlined,
  order: 80,
});
