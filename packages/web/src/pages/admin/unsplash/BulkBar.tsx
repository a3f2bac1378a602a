import { AutoComplete, Button, Popconfirm, Popover, Space, Typography } from 'antd';
import { useState } from 'react';
import { useApiAction } from '../../../api/hooks';
import { untilSettled } from '../../../components/writes';

/** Actions on the chosen images: enable, disable, move to a category, delete. */
export function BulkBar({ ids, categories, onDone }: { ids: number[]; categories: string[]; onDone: () => void }) {
  const enable = useApiAction('/api/unsplash/enable');
  const disable = useApiAction('/api/unsplash/disable');
  const move = useApiAction('/api/unsplash/move');
  const remove = useApiAction('/api/unsplash/remove', {
    refreshes: ['/api/unsplash/', '/api/files/'],
  });
  const [target, setTarget] = useState('');
  const [moving, setMoving] = useState(false);
  if (ids.length === 0) return null;
  const after = { onSuccess: onDone };
  return (
    <div className="selection-bar" role="toolbar" aria-label="批量操作">
      <Typography.Text strong>已选 {ids.length} 张</Typography.Text>
      <Space wrap>
        <Button size="small" loading={enable.isPending} onClick={() => enable.mutate({ ids }, after)}>
          启用
        </Button>
        <Button size="small" loading={disable.isPending} onClick={() => disable.mutate({ ids }, after)}>
          停用
        </Button>
        <Popover
          open={moving}
          onOpenChange={setMoving}
          trigger="click"
          title="移动到分类"
          content={
            <Space.Compact>
              <AutoComplete
                value={target}
                onChange={setTarget}
                options={categories.filter(Boolean).map((c) => ({ value: c }))}
                placeholder="分类名，留空为未分类"
                maxLength={20}
                style={{ width: 180 }}
                aria-label="目标分类"
              />
              <Button
                type="primary"
                loading={move.isPending}
                onClick={() =>
                  move.mutate(
                    { ids, category: target.trim() },
                    {
                      onSuccess: () => {
                        setMoving(false);
                        onDone();
                      },
                    },
                  )
                }
              >
                移动
              </Button>
            </Space.Compact>
          }
        >
          <Button size="small">移动到分类</Button>
        </Popover>
        <Popconfirm
          title={`删除 ${ids.length} 张图片`}
          description="原图和缩略图会从服务器上永久删除，App 中也不再显示。"
          okText="删除"
          okButtonProps={{ danger: true }}
          onConfirm={() => untilSettled(remove.mutate, { ids }).then(onDone)}
        >
          <Button size="small" danger>
            删除
          </Button>
        </Popconfirm>
        <Button size="small" type="link" onClick={onDone}>
          取消选择
        </Button>
      </Space>
    </div>
  );
}
