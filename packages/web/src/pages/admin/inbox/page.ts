import { InboxOutlined } from '@ant-design/icons';
import { definePage } from '../../../layouts/pageDecl';

export default definePage({
  label: '消息中心',
  group: 'people',
  icon: InboxOutlined,
  order: 280,
  inMenu: false,
  hint: '发给你本人（当前管理员账号）的消息，由右上角铃铛进入',
});
