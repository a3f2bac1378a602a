import { MailOutlined } from '@ant-design/icons';
import { definePage } from '../../../layouts/pageDecl';

export default definePage({
  label: '站内消息',
  group: 'people',
  icon: MailOutlined,
  order: 190,
  hint: '发给 App 用户的消息：App 的消息列表读取这里',
});
