import { permissionList } from '@appdesk/contract/permissions';
import { describe, expect, it } from 'vitest';
import { checkedPermissions, heldOf, pageNodeKey, permissionTree } from './permissionTree';

describe('the role editor’s permission tree', () => {
  it('holds every permission of the catalog once, under its page, in Chinese', () => {
    const leaves = permissionTree.flatMap((page) => page.actions.map((a) => a.key));
    expect(leaves).toEqual(permissionList.map((p) => p.key));
    const order = permissionTree.find((page) => page.key === pageNodeKey('order'));
    expect(order?.label).toBe('订单管理');
    expect(order?.actions.find((a) => a.key === 'order.refund')).toEqual({
      key: 'order.refund',
      label: '退款',
      sensitive: true,
    });
  });

  it('checking an action checks its page’s 查看; a page’s own box is not a permission', () => {
    expect(checkedPermissions(['order.refund'])).toEqual(['order.read', 'order.refund']);
    expect(checkedPermissions([pageNodeKey('order'), 'dashboard.read', 'nonsense'])).toEqual(['dashboard.read']);
    const order = permissionTree.find((page) => page.key === pageNodeKey('order'));
    if (!order) throw new Error('no 订单管理');
    expect(heldOf(order, new Set(['order.read', 'order.refund', 'users.read']))).toBe(2);
  });
});
