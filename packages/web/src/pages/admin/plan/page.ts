import { CrownOutlined } from '@ant-design/icons';
import { definePage } from '../../../layouts/pageDecl';

export default definePage({
  label: '会员套餐',
  group: 'commerce',
  icon: CrownOutlined,
  order: 40,
});
