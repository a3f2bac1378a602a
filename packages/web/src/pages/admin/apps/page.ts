import { AppstoreAddOutlined } from '@ant-design/icons';
import { definePage } from '../../../layouts/pageDecl';

export default definePage({
  label: '应用管理',
  group: 'system',
  icon: AppstoreAddOutlined,
  order: 205,
  hint: '公司的各个 App：代码、包名、上架渠道、商店与支付设置；页头的应用切换来自这里',
});
