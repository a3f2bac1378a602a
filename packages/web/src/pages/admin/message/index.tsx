import { UnderConstruction } from '../../../components/UnderConstruction';

/** /admin/admin/message (站内消息): not built yet. */
export default function MessagePage() {
  return <UnderConstruction explanation="站内消息页面正在开发，完成后可在这里向全体或指定用户发送消息。" />;
}
