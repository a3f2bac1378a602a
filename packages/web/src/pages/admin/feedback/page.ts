import { CommentOutlined } from '@ant-design/icons';
import { definePage } from '../../../layouts/pageDecl';

export default definePage({
  label: '意见反馈',
  group: 'people',
  icon: CommentOutlined,
  order: 120,
  hint: 'App 的“意见反馈”表单提交到这里：不登录也能提交，回复以站内消息送达',
});
