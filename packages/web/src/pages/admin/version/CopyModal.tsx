import { channels } from '@appdesk/contract/constants';
import type { ApiOutput } from '@appdesk/contract/types';
import { Checkbox, Typography } from 'antd';
import { useState } from 'react';
import { useApiAction } from '../../../api/hooks';
import { EditorModal } from '../../../components/admin/EditorModal';

type Release = ApiOutput<'/api/version/fetch/page'>['list'][number];

/** 复制到渠道: one release copied to the chosen channels as drafts, in one step. */
export function CopyModal({ release, onClose }: { release: Release | null; onClose: () => void }) {
  const [chosen, setChosen] = useState<string[]>([]);
  const copy = useApiAction('/api/version/copy', {
    success: (out) => ({
      title: `已复制到 ${out.created.length} 个渠道（草稿）`,
      description: out.skipped.length ? `已有相同版本号而跳过：${out.skipped.join('、')}` : undefined,
    }),
  });
  const close = () => {
    setChosen([]);
    onClose();
  };
  const options = channels.filter((c) => c.value !== release?.channel).map((c) => ({ value: c.value, label: c.label }));
  return (
    <EditorModal
      title="复制到其他渠道"
      open={release !== null}
      onCancel={close}
      changed={chosen.length > 0}
      okText="复制"
      okButtonProps={{ disabled: chosen.length === 0, loading: copy.isPending }}
      onOk={() =>
        release &&
        copy.mutate(
          { id: release.id, channels: chosen as (typeof channels)[number]['value'][] },
          { onSuccess: onClose },
        )
      }
      destroyOnHidden
    >
      <Typography.Paragraph type="secondary">
        把 {release?.versionName}（版本号 {release?.versionCode}
        ）复制为所选渠道的草稿，商店链接按各渠道生成，检查无误后再发布。
      </Typography.Paragraph>
      <Checkbox.Group
        className="version-copy-channels"
        options={options}
        value={chosen}
        onChange={(v) => setChosen(v as string[])}
      />
    </EditorModal>
  );
}
