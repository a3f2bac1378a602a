import { QuestionCircleOutlined } from '@ant-design/icons';
import { definePage } from '../../../layouts/pageDecl';

export default definePage({
  label: '帮助文档',
  group: 'release',
  icon: QuestionCircleOutlined,
  order: 180,
});
