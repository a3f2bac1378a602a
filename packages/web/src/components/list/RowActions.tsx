import { MoreOutlined } from '@ant-design/icons';
import type { ApiPath } from '@appdesk/contract/types';
import { App, Button, Dropdown, Space } from 'antd';
import type { ReactNode } from 'react';
import { useGrants } from '../../state/grants';
import { ConfirmLink } from './ConfirmLink';

/** One action of a row: a plain click, or one that asks first (`confirm`). */
export interface RowAction {
  key: string;
  label: string;
  /**
   * The endpoint the action calls: the action is shown only to an operator its permission allows
   * (state/grants.ts). Actions that call none (详情, a link) leave it out.
   */
  path?: ApiPath;
  danger?: boolean;
  onClick?: () => void;
  confirm?: { title: string; description: string; okText: string; onConfirm: () => Promise<void> };
}

/**
 * A row's actions: the first `inline` as links, the rest under 更多, so the 操作 column keeps a
 * fixed width and no action sits cut off at the card's edge. Falsy entries are skipped, so a page
 * can write `cond && { … }`, and so are those whose `path` the operator may not call.
 */
export function RowActions(props: { actions: (RowAction | false | null | undefined)[]; inline?: number }) {
  const { modal } = App.useApp();
  const { canCall } = useGrants();
  const actions = props.actions.filter((a): a is RowAction => (a ? !a.path || canCall(a.path) : false));
  const inline = props.inline ?? 2;
  // Hiding a single action behind 更多 saves nothing.
  const shown = actions.length <= inline + 1 ? actions : actions.slice(0, inline);
  const more = actions.slice(shown.length);

  const link = (action: RowAction): ReactNode =>
    action.confirm ? (
      <ConfirmLink key={action.key} {...action.confirm} danger={action.danger}>
        {action.label}
      </ConfirmLink>
    ) : (
      <Button key={action.key} type="link" size="small" danger={action.danger} onClick={action.onClick}>
        {action.label}
      </Button>
    );

  const run = (action: RowAction) => {
    const ask = action.confirm;
    if (!ask) return action.onClick?.();
    modal.confirm({
      title: ask.title,
      content: ask.description,
      okText: ask.okText,
      cancelText: '取消',
      okButtonProps: action.danger ? { danger: true } : undefined,
      onOk: ask.onConfirm,
    });
  };

  return (
    <Space size={0} wrap>
      {shown.map(link)}
      {more.length ? (
        <Dropdown
          trigger={['click']}
          menu={{
            items: more.map((action) => ({ key: action.key, label: action.label, danger: action.danger })),
            onClick: ({ key }) => {
              const action = more.find((a) => a.key === key);
              if (action) run(action);
            },
          }}
        >
          <Button type="link" size="small" icon={<MoreOutlined aria-hidden />} iconPlacement="end">
            更多
          </Button>
        </Dropdown>
      ) : null}
    </Space>
  );
}
