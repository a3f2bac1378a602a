import { MoneyCollectOutlined } from '@ant-design/icons';
import { definePage } from '../../../layouts/pageDecl';

export default definePage({
  label: '金币流水',
  group: 'people',
  icon: MoneyCollectOutlined,
  order: 200,
});
