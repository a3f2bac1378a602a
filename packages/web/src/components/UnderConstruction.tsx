import { ToolOutlined } from '@ant-design/icons';
import { Result } from 'antd';

/** Placeholder for admin pages that are not built yet. */
export function UnderConstruction({ explanation }: { explanation: string }) {
  return <Result icon={<ToolOutlined aria-hidden />} title="建设中" subTitle={explanation} />;
}
