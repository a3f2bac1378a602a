import type { Permission } from '@appdesk/contract/permissions';
import { Tag, Tree, type TreeDataNode } from 'antd';
import { type Key, useMemo, useState } from 'react';
import { checkedPermissions, heldOf, permissionTree } from './permissionTree';

/**
 * A role's permissions as a tree of the console's pages and their actions, in Chinese. Sensitive
 * actions are marked 「敏感」; checking any action checks its page's 查看 too (the server grants
 * it anyway). `grantable` greys out what the editing operator may not hand out themself.
 */
export function PermissionTree({
  value,
  onChange,
  disabled,
  grantable,
  id,
}: {
  value?: readonly Permission[];
  onChange?: (value: Permission[]) => void;
  disabled?: boolean;
  grantable?: (permission: Permission) => boolean;
  id?: string;
}) {
  const held = useMemo(() => new Set<string>(value ?? []), [value]);
  const treeData = useMemo<TreeDataNode[]>(
    () =>
      permissionTree.map((page) => {
        const count = heldOf(page, held);
        return {
          key: page.key,
          title: (
            <span>
              <span>{page.label}</span>
              <span className="list-muted" style={{ marginInlineStart: 8 }}>
                {count}/{page.actions.length}
              </span>
            </span>
          ),
          children: page.actions.map((action) => ({
            key: action.key,
            isLeaf: true,
            disableCheckbox: grantable ? !grantable(action.key) : false,
            title: (
              <span>
                <span>{action.label}</span>
                {action.sensitive ? (
                  <Tag color="orange" style={{ marginInlineStart: 8 }}>
                    敏感
                  </Tag>
                ) : null}
              </span>
            ),
          })),
        };
      }),
    [held, grantable],
  );
  // Pages with something held are open until the operator folds or unfolds one themself.
  const [expanded, setExpanded] = useState<Key[] | null>(null);
  // All of them (超级管理员) would be one long list: its pages start folded, each showing 「n/n」.
  const opened = permissionTree.filter((page) => heldOf(page, held) > 0);
  const shown = expanded ?? (opened.length === permissionTree.length ? [] : opened.map((page) => page.key));

  return (
    <div id={id} className="roles-tree">
      <Tree
        checkable
        selectable={false}
        disabled={disabled}
        treeData={treeData}
        expandedKeys={shown}
        onExpand={(keys) => setExpanded(keys)}
        checkedKeys={[...held]}
        onCheck={(checked) => {
          const keys = Array.isArray(checked) ? checked : checked.checked;
          onChange?.(checkedPermissions(keys));
        }}
      />
    </div>
  );
}
