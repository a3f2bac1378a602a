import { LikeOutlined } from '@ant-design/icons';
import { definePage } from '../../../layouts/pageDecl';

export default definePage({
  label: '好评奖励',
  group: 'commerce',
  icon: LikeOutlined,
  order: 230,
});
