import { UnderConstruction } from '../../../components/UnderConstruction';

/** /admin/admin/feedbackv2 (反馈工单): not built yet. */
export default function Feedbackv2Page() {
  return <UnderConstruction explanation="反馈工单页面正在开发，完成后可在这里以工单形式与用户沟通。" />;
}
