import { BATCH_MAX, type FieldRule } from '@appdesk/contract/rules';
import type { ApiInput, ApiOutput, ApiPath } from '@appdesk/contract/types';

/** What every batch endpoint answers (contract batch.ts). */
type BatchAnswer = ApiOutput<'/api/exchange/record/ship/batch'>;

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Form, Input, Modal, Space, Table } from 'antd';
import { type Key, type ReactNode, useState } from 'react';
import { callOk } from '../../api/request';
import { useGrants } from '../../state/grants';
import { formRules, inputLimits } from '../rules';
import { EditorModal } from './EditorModal';

/** One button of a list's batch bar: a batch endpoint (contract `batchEndpoint`) and what it needs. */
export interface BatchButton {
  label: string;
  path: ApiPath;
  danger?: boolean;
  /** Parameters every record gets that the operator does not type (`{ enabled: true }`). */
  params?: Record<string, unknown>;
  /** One text every record gets (a reason, a reply), asked in a dialog first; otherwise a confirmation. */
  text?: { name: string; label: string; rule: FieldRule; placeholder?: string };
}

/**
 * The selection after a change of the table's checkboxes: the keys it now holds, each with its row
 * from this page or, for a row ticked on another page (antd gives no row for it), as kept before.
 */
export function nextSelection<Row extends { id: number }>(
  kept: ReadonlyMap<number, Row>,
  keys: readonly Key[],
  selected: readonly (Row | undefined)[],
): Map<number, Row> {
  const next = new Map<number, Row>();
  for (const key of keys) {
    const row = selected.find((r) => r?.id === key) ?? kept.get(Number(key));
    if (row) next.set(row.id, row);
  }
  return next;
}

/**
 * The rows selected in a list, kept across its pages (a batch may gather rows from several), with
 * the words that name each in a batch's result.
 */
export function useSelection<Row extends { id: number }>(describe: (row: Row) => string) {
  const [rows, setRows] = useState<Map<number, Row>>(new Map());
  const ids = [...rows.keys()];
  return {
    ids,
    rows: [...rows.values()],
    clear: () => setRows(new Map()),
    labelOf: (id: number) => {
      const row = rows.get(id);
      return row ? describe(row) : `#${id}`;
    },
    rowSelection: {
      selectedRowKeys: ids,
      preserveSelectedRowKeys: true,
      onChange: (keys: Key[], selected: (Row | undefined)[]) => setRows(nextSelection(rows, keys, selected)),
    },
  };
}

/** The answer of a batch with the dialog that lists which records failed and why. */
export function useBatchRun(noun: string, labelOf: (id: number) => string) {
  const queryClient = useQueryClient();
  const [result, setResult] = useState<BatchResult | null>(null);
  const mutation = useMutation({
    mutationFn: ({ path, input }: { path: ApiPath; input: Record<string, unknown>; title: string }) =>
      callOk(path, input as ApiInput<ApiPath>, { action: true }) as unknown as Promise<BatchAnswer>,
    onSuccess: async (answer, { path, title }) => {
      // Named now: the selection the names come from is cleared once the batch is done.
      setResult({ title, answer, labels: new Map(answer.results.map((r) => [r.id, labelOf(r.id)])) });
      const domain = `/api/${path.split('/')[2]}/`;
      await queryClient.invalidateQueries({
        predicate: (query) => typeof query.queryKey[0] === 'string' && query.queryKey[0].startsWith(domain),
      });
    },
  });
  const dialog = <BatchResultModal result={result} noun={noun} onClose={() => setResult(null)} />;
  return { mutation, dialog };
}

/**
 * The batch buttons the operator may press (each endpoint's permission, state/grants.ts): a page
 * shows its row checkboxes only when one is left (or a batch of its own is allowed).
 */
export function useAllowedBatches(buttons: BatchButton[]): BatchButton[] {
  const { canCall } = useGrants();
  return buttons.filter((button) => canCall(button.path));
}

/**
 * 批量操作 on the rows selected in a list: each button runs its batch endpoint on every selected
 * record; the result dialog then says which succeeded and, for each that failed, why. `children`
 * adds page-specific buttons (a dialog of its own, like 批量发货's tracking numbers). Only the
 * buttons the operator's roles allow are shown.
 */
export function BatchBar({
  selection,
  noun,
  buttons,
  children,
}: {
  /** The list's `useSelection`: what is selected, its names, and clearing it once a batch is done. */
  selection: Pick<ReturnType<typeof useSelection>, 'ids' | 'labelOf' | 'clear'>;
  /** What one record is called (兑换记录, 申请): 已选择 3 条兑换记录. */
  noun: string;
  buttons: BatchButton[];
  children?: ReactNode;
}) {
  const { ids, labelOf, clear: onDone } = selection;
  const { modal } = App.useApp();
  const allowed = useAllowedBatches(buttons);
  const [asking, setAsking] = useState<BatchButton | null>(null);
  const [form] = Form.useForm<Record<string, string>>();
  const { mutation, dialog } = useBatchRun(noun, labelOf);
  const tooMany = ids.length > BATCH_MAX;

  const run = (button: BatchButton, extra: Record<string, unknown> = {}) =>
    mutation.mutate(
      { path: button.path, input: { ids, ...button.params, ...extra }, title: button.label },
      {
        onSuccess: () => {
          setAsking(null);
          onDone();
        },
      },
    );
  const press = (button: BatchButton) => {
    if (button.text) {
      form.resetFields();
      setAsking(button);
      return;
    }
    modal.confirm({
      title: `${button.label}：共 ${ids.length} 条${noun}`,
      content: '逐条处理，已处理的不会因其他记录失败而撤销；完成后列出每条的结果。',
      okText: '确定',
      cancelText: '取消',
      okButtonProps: { danger: button.danger },
      onOk: () => run(button),
    });
  };
  const submit = async () => {
    const values = await form.validateFields().catch(() => null);
    if (!values || !asking?.text) return;
    run(asking, { [asking.text.name]: values[asking.text.name].trim() });
  };

  return (
    <>
      {ids.length > 0 ? (
        <section className="selection-bar" aria-label="批量操作">
          <span>
            已选择 <strong>{ids.length}</strong> 条{noun}
          </span>
          <Space wrap size={8}>
            {children}
            {allowed.map((button) => (
              <Button
                key={button.path + JSON.stringify(button.params ?? {})}
                size="small"
                danger={button.danger}
                disabled={tooMany}
                loading={mutation.isPending && mutation.variables?.title === button.label}
                onClick={() => press(button)}
              >
                {button.label}
              </Button>
            ))}
            <Button size="small" type="link" onClick={onDone}>
              取消选择
            </Button>
          </Space>
          {tooMany ? <Alert type="warning" showIcon title={`一次最多操作 ${BATCH_MAX} 条，请减少所选`} /> : null}
        </section>
      ) : null}
      <EditorModal
        title={asking ? `${asking.label}：共 ${ids.length} 条${noun}` : ''}
        open={asking !== null}
        onCancel={() => setAsking(null)}
        onOk={() => void submit()}
        okText="确定"
        cancelText="取消"
        okButtonProps={{ loading: mutation.isPending, danger: asking?.danger }}
        destroyOnHidden
      >
        {asking?.text ? (
          <Form form={form} name="batch-text" layout="vertical" autoComplete="off">
            <Form.Item
              label={asking.text.label}
              name={asking.text.name}
              rules={formRules(asking.text.rule)}
              extra="每条记录都用这段文字"
            >
              <Input.TextArea rows={4} placeholder={asking.text.placeholder} {...inputLimits(asking.text.rule)} />
            </Form.Item>
          </Form>
        ) : null}
      </EditorModal>
      {dialog}
    </>
  );
}

interface BatchResult {
  title: string;
  answer: BatchAnswer;
  labels: Map<number, string>;
}

/** 批量操作结果: the counts, and each record that failed with the reason its single action gave. */
function BatchResultModal({
  result,
  noun,
  onClose,
}: {
  result: BatchResult | null;
  noun: string;
  onClose: () => void;
}) {
  const failed = result?.answer.results.filter((r) => !r.ok) ?? [];
  return (
    <Modal
      title={result ? `${result.title}结果` : ''}
      open={result !== null}
      onCancel={onClose}
      onOk={onClose}
      okText="知道了"
      cancelButtonProps={{ style: { display: 'none' } }}
      destroyOnHidden
    >
      {result ? (
        <Space orientation="vertical" style={{ width: '100%' }}>
          <Alert
            type={result.answer.failed === 0 ? 'success' : result.answer.succeeded === 0 ? 'error' : 'warning'}
            showIcon
            title={`成功 ${result.answer.succeeded} 条，失败 ${result.answer.failed} 条`}
          />
          {failed.length > 0 ? (
            <Table
              size="small"
              rowKey="id"
              pagination={false}
              scroll={{ y: 320 }}
              aria-label="失败的记录"
              dataSource={failed}
              columns={[
                { title: noun, key: 'record', render: (_, r) => result.labels.get(r.id) ?? `#${r.id}` },
                { title: '失败原因', dataIndex: 'message', key: 'message' },
              ]}
            />
          ) : null}
        </Space>
      ) : null}
    </Modal>
  );
}
