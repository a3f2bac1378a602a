import { ShoppingOutlined } from '@ant-design/icons';
import { definePage } from '../../../layouts/pageDecl';

export default definePage({
  label: '内购商品',
  group: 'commerce',
  icon: ShoppingOutlined,
  order: 60,
});
