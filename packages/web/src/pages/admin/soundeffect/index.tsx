import { UnderConstruction } from '../../../components/UnderConstruction';

/** /admin/admin/soundeffect (音效管理): not built yet. */
export default function SoundeffectPage() {
  return <UnderConstruction explanation="音效管理页面正在开发，完成后可在这里上传和管理音效文件。" />;
}
