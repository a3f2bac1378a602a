import { UnderConstruction } from '../../../components/UnderConstruction';

/** /admin/admin/feedback (意见反馈): not built yet. */
export default function FeedbackPage() {
  return <UnderConstruction explanation="意见反馈页面正在开发，完成后可在这里查看和回复用户反馈。" />;
}
