import { UnderConstruction } from '../../../components/UnderConstruction';

/** /admin/admin/selfapprecord (推广记录): not built yet. */
export default function SelfapprecordPage() {
  return <UnderConstruction explanation="推广记录页面正在开发，完成后可在这里查看自家应用的展示、点击和安装记录。" />;
}
