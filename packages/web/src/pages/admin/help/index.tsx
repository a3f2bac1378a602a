import { UnderConstruction } from '../../../components/UnderConstruction';

/** /admin/admin/help (帮助文档): not built yet. */
export default function HelpPage() {
  return <UnderConstruction explanation="帮助文档页面正在开发，完成后可在这里编写和发布帮助文章。" />;
}
