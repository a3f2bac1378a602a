import { Image } from 'antd';
import './image-strip.css';

/**
 * Thumbnails of a feedback's or a reply's images that open large, one after another
 * (Image.PreviewGroup: arrows, zoom, rotate). Nothing when there are none.
 */
export function ImageStrip({ images, size = 56 }: { images: { id: number; url: string }[]; size?: number }) {
  if (images.length === 0) return null;
  return (
    <div className="image-strip">
      <Image.PreviewGroup>
        {images.map((image, index) => (
          <Image
            key={image.id}
            src={image.url}
            width={size}
            height={size}
            alt={`图片 ${index + 1}`}
            style={{ objectFit: 'cover', borderRadius: 4 }}
          />
        ))}
      </Image.PreviewGroup>
    </div>
  );
}
