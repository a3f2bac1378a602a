import { DEFAULT_APP, vipReasons } from '@appdesk/contract/constants';
import { sourceText } from '@appdesk/contract/format';
import { labelOf } from '@appdesk/contract/rules';
import type { AdminUser, ApiOutput } from '@appdesk/contract/types';
import { Button, Empty, Form, Input, InputNumber, Select, Table, Typography } from 'antd';
import { useRef, useState } from 'react';
import { useApiAction, useApiQuery } from '../../../api/hooks';
import { EditorModal } from '../../../components/admin/EditorModal';
import { TimeCell, useScrollableTable } from '../../../components/list';
import { formRules, inputLimits, rules } from '../../../components/rules';
import { useApps, useCurrentApp } from '../../../state/apps';
import { useGrants } from '../../../state/grants';
import { vipTime } from './VipText';

type VipRow = ApiOutput<'/api/vip/fetch/page'>['list'][number];
/** The user's VIP in each app it ever had some (users/fetch/detail). */
export type Vips = ApiOutput<'/api/users/fetch/detail'>['vips'];

interface Values {
  app: string;
  days: number | null;
  reason: string;
}

/**
 * 调整会员: in one app (VIP is per app; the console's current app first), whole days (negative
 * takes back) and a required reason; recorded in the VIP history.
 */
function VipModal({ user, vips, open, onClose }: { user: AdminUser; vips: Vips; open: boolean; onClose: () => void }) {
  const [form] = Form.useForm<Values>();
  const apps = useApps();
  const initialApp = useCurrentApp() ?? DEFAULT_APP;
  const app = Form.useWatch('app', form) ?? initialApp;
  const current = vips.find((v) => v.app === app)?.expiresAt ?? null;
  const adjust = useApiAction('/api/vip/update', {
    refreshes: ['/api/vip/', '/api/users/'],
    success: ({ vipExpiresAt }) => ({ title: '会员时长已调整', description: `到期时间：${vipTime(vipExpiresAt)}` }),
  });
  const close = () => {
    form.resetFields();
    onClose();
  };
  const submit = async () => {
    const values = await form.validateFields().catch(() => null);
    if (!values || typeof values.days !== 'number') return;
    adjust.mutate(
      { id: user.id, app: values.app, days: values.days, reason: values.reason.trim() },
      { onSuccess: close },
    );
  };
  return (
    <EditorModal
      title={`调整会员 - ${user.name}`}
      open={open}
      onOk={() => void submit()}
      onCancel={close}
      okText="确认调整"
      cancelText="取消"
      confirmLoading={adjust.isPending}
      destroyOnHidden
    >
      <Typography.Paragraph type="secondary">
        {apps.nameOf(app)}当前到期：{vipTime(current)}
        。会员按应用分别计算；正数从当前到期时间（已过期则从现在）起延长，负数收回剩余时长，调整会记入会员记录和操作日志。
      </Typography.Paragraph>
      <Form
        form={form}
        layout="vertical"
        autoComplete="off"
        initialValues={{ app: initialApp }}
        onFinish={() => void submit()}
      >
        <Form.Item label="应用" name="app" rules={[{ required: true, message: '请选择应用' }]}>
          <Select options={apps.options} />
        </Form.Item>
        <Form.Item label="调整天数" name="days" rules={formRules(rules.vipDays)}>
          <InputNumber<number>
            precision={0}
            {...inputLimits(rules.vipDays)}
            style={{ width: '100%' }}
            placeholder="例如 30 或 -7"
            suffix="天"
          />
        </Form.Item>
        <Form.Item label="原因" name="reason" rules={formRules(rules.reason)}>
          <Input.TextArea
            placeholder="例如：客服补偿、活动赠送"
            {...inputLimits(rules.reason)}
            showCount
            autoSize={{ minRows: 2, maxRows: 5 }}
          />
        </Form.Item>
      </Form>
    </EditorModal>
  );
}

/**
 * The drawer's VIP block: adjust button and the latest changes with their reasons and sources. In the
 * desktop drawer the table fits (long notes wrap); on a phone it scrolls sideways inside its own box,
 * which the keyboard can reach.
 */
export function VipSection({ user, vips }: { user: AdminUser; vips: Vips }) {
  const [open, setOpen] = useState(false);
  const apps = useApps();
  const { canCall } = useGrants();
  const history = useApiQuery(
    '/api/vip/fetch/page',
    { userId: user.id, size: 10 },
    { enabled: canCall('/api/vip/fetch/page') },
  );
  const section = useRef<HTMLDivElement>(null);
  useScrollableTable(section, '会员记录（可左右滚动）');
  return (
    <div className="user-detail-section" ref={section}>
      <div className="user-detail-subhead">
        <Typography.Title level={5} style={{ margin: 0 }}>
          会员记录
        </Typography.Title>
        {canCall('/api/vip/update') ? (
          <Button size="small" onClick={() => setOpen(true)}>
            调整会员
          </Button>
        ) : null}
      </div>
      <Table<VipRow>
        className="user-vip-table"
        size="small"
        rowKey="id"
        loading={history.isFetching}
        dataSource={history.data?.list ?? []}
        pagination={false}
        scroll={{ x: 600 }}
        locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="该用户还没有会员变动记录" /> }}
        columns={[
          { title: '时间', dataIndex: 'createdAt', render: (v: string) => <TimeCell value={v} /> },
          {
            title: '变动',
            dataIndex: 'days',
            align: 'right',
            render: (v: number | null) => (v === null ? '永久' : `${v > 0 ? '+' : ''}${v} 天`),
          },
          { title: '到期', dataIndex: 'afterExpiresAt', render: (v: string | null) => vipTime(v) },
          {
            // The app under the reason: a column of its own would not fit the desktop drawer.
            title: '原因 / 应用',
            dataIndex: 'reason',
            render: (v: string, r) => (
              <>
                {labelOf(vipReasons, v)}
                <div className="list-muted">{apps.nameOf(r.app)}</div>
              </>
            ),
          },
          {
            title: '来源 / 备注',
            key: 'note',
            render: (_, r) =>
              [sourceText(r.refType, r.refId), r.note ?? ''].filter(Boolean).join(' · ') || (
                <span className="list-muted">-</span>
              ),
          },
        ]}
      />
      <VipModal user={user} vips={vips} open={open} onClose={() => setOpen(false)} />
    </div>
  );
}
