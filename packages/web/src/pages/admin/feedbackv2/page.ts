import { CustomerServiceOutlined } from '@ant-design/icons';
import { definePage } from '../../../layouts/pageDecl';

export default definePage({
  label: '反馈工单',
  group: 'people',
  icon: CustomerServiceOutlined,
  order: 130,
  hint: 'App 里已登录用户发起的反馈会话：按分类、可多轮往来',
});
