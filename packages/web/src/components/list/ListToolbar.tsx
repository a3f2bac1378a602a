import { DownloadOutlined } from '@ant-design/icons';
import type { ApiPath } from '@appdesk/contract/types';
import { Button, Space } from 'antd';
import { type ReactNode, useState } from 'react';
import { useGrants } from '../../state/grants';
import { downloadExport } from '../download';

/**
 * The buttons at the right of the search form: the page's own, 导出 Excel, then the table's tools.
 * 导出 Excel only for an operator holding the export's permission (`<page>.export`).
 */
export function ListActions(props: {
  actions?: ReactNode;
  exportPath?: ApiPath;
  exportName?: string;
  /** The current filter and sort, as the list asks for them (no page, size). */
  filter: Record<string, unknown>;
  tools: ReactNode;
}) {
  const { actions, filter, tools, exportName } = props;
  const { canCall } = useGrants();
  const exportPath = props.exportPath && canCall(props.exportPath) ? props.exportPath : undefined;
  const [exporting, setExporting] = useState(false);
  const onExport = async () => {
    if (!exportPath) return;
    setExporting(true);
    try {
      await downloadExport(exportPath, filter, `${exportName ?? '导出'}.xlsx`);
    } catch {
      // The download helper already told the user.
    } finally {
      setExporting(false);
    }
  };
  return (
    <Space wrap className="list-actions">
      {actions}
      {exportPath ? (
        <Button icon={<DownloadOutlined aria-hidden />} loading={exporting} onClick={() => void onExport()}>
          导出 Excel
        </Button>
      ) : null}
      {tools}
    </Space>
  );
}
