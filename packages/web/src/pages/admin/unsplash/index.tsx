import { UnderConstruction } from '../../../components/UnderConstruction';

/** /admin/admin/unsplash (图片管理): not built yet. */
export default function UnsplashPage() {
  return <UnderConstruction explanation="图片管理页面正在开发，完成后可在这里上传和分类图片素材。" />;
}
