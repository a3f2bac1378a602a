import type { ApiInput, ApiOutput } from '@appdesk/contract/types';
import { Button, Card, Empty, Image, Space, Table } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useApiQuery } from '../../../api/hooks';

type Totals = ApiOutput<'/api/selfapp/record/fetch/totals'>;
type TotalRow = Totals['list'][number];

const count = (v: number) => v.toLocaleString('zh-CN');
const percent = (v: number | null) => (v === null ? '-' : `${(v * 100).toFixed(2)}%`);

/** 推广汇总: per promoted app, for the list's filter (every action): shows, clicks, installs, rates, coins. */
export function SelfappTotals({
  filter,
  onPick,
}: {
  filter: ApiInput<'/api/selfapp/record/fetch/totals'>;
  onPick: (selfappId: number) => void;
}) {
  const totals = useApiQuery('/api/selfapp/record/fetch/totals', filter, { keepPrevious: true });
  const sum = totals.data?.sum;
  const columns: ColumnsType<TotalRow> = [
    {
      title: '推广应用',
      key: 'name',
      render: (_, t) => (
        <Space size={8}>
          {t.icon ? (
            <Image src={t.icon} alt="" width={28} height={28} preview={false} style={{ borderRadius: 6 }} />
          ) : null}
          <Button type="link" size="small" style={{ padding: 0 }} onClick={() => onPick(t.selfappId)}>
            {t.selfappName || `已删除的应用 #${t.selfappId}`}
          </Button>
        </Space>
      ),
    },
    { title: '展示', dataIndex: 'shows', key: 'shows', align: 'right', render: count },
    { title: '点击', dataIndex: 'clicks', key: 'clicks', align: 'right', render: count },
    { title: '安装', dataIndex: 'installs', key: 'installs', align: 'right', render: count },
    { title: '点击率', dataIndex: 'clickRate', key: 'clickRate', align: 'right', render: percent },
    { title: '安装率', dataIndex: 'installRate', key: 'installRate', align: 'right', render: percent },
    { title: '奖励人数', dataIndex: 'rewardedUsers', key: 'rewardedUsers', align: 'right', render: count },
    {
      title: '发放金币',
      dataIndex: 'coins',
      key: 'coins',
      align: 'right',
      render: (v: number) => <strong>{count(v)}</strong>,
    },
  ];
  return (
    <Card size="small" title="推广汇总" style={{ marginBottom: 16 }} className="selfapp-totals">
      <p className="list-muted" style={{ margin: '0 0 8px' }}>
        按当前应用（页头切换）和下方筛选的时间、渠道统计全部行为；点击率 = 点击 ÷ 展示，安装率 = 安装 ÷ 点击。
      </p>
      <Table<TotalRow>
        rowKey="selfappId"
        size="small"
        columns={columns}
        dataSource={totals.data?.list ?? []}
        loading={totals.isLoading}
        pagination={false}
        scroll={{ x: 'max-content' }}
        locale={{
          // In Empty, as ListView does: a bare string is drawn in antd's disabled grey, below AA contrast.
          emptyText: (
            <Empty
              image={Empty.PRESENTED_IMAGE_SIMPLE}
              description="筛选时间内还没有推广数据。App 上报展示、点击或安装后，这里按推广应用汇总。"
            />
          ),
        }}
        summary={() =>
          sum && (totals.data?.list.length ?? 0) > 1 ? (
            <Table.Summary.Row>
              <Table.Summary.Cell index={0}>合计</Table.Summary.Cell>
              <Table.Summary.Cell index={1} align="right">
                {count(sum.shows)}
              </Table.Summary.Cell>
              <Table.Summary.Cell index={2} align="right">
                {count(sum.clicks)}
              </Table.Summary.Cell>
              <Table.Summary.Cell index={3} align="right">
                {count(sum.installs)}
              </Table.Summary.Cell>
              <Table.Summary.Cell index={4} align="right">
                {percent(sum.clickRate)}
              </Table.Summary.Cell>
              <Table.Summary.Cell index={5} align="right">
                {percent(sum.installRate)}
              </Table.Summary.Cell>
              <Table.Summary.Cell index={6} align="right">
                {count(sum.rewardedUsers)}
              </Table.Summary.Cell>
              <Table.Summary.Cell index={7} align="right">
                <strong>{count(sum.coins)}</strong>
              </Table.Summary.Cell>
            </Table.Summary.Row>
          ) : null
        }
      />
    </Card>
  );
}
