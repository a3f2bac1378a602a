import type { Permission } from '@appdesk/contract/permissions';
import { rolesRules } from '@appdesk/contract/rules/roles';
import type { ApiOutput } from '@appdesk/contract/types';
import { Alert, Descriptions, Drawer, Form, Input, Switch } from 'antd';
import { useApiAction, useApiQuery } from '../../../api/hooks';
import { AppScopeField, appScopeRule } from '../../../components/admin/AppScopeField';
import { AppNames } from '../../../components/admin/appField';
import { EditorDrawer } from '../../../components/admin/EditorDrawer';
import { useEditor } from '../../../components/admin/useEditor';
import { formRules, inputLimits } from '../../../components/rules';
import { useIsMobile } from '../../../components/useIsMobile';
import { useGrants } from '../../../state/grants';
import { PermissionTree } from './PermissionTree';

type Role = ApiOutput<'/api/roles/fetch/detail'>['role'];

interface Values {
  name: string;
  description: string;
  permissions: Permission[];
  apps: string[] | null;
  requireTotp: boolean;
}

const blank: Values = { name: '', description: '', permissions: [], apps: null, requireTotp: false };

const toValues = (r: Role): Values => ({
  name: r.name,
  description: r.description,
  permissions: r.permissions as Permission[],
  apps: r.apps,
  requireTotp: r.requireTotp,
});

const toInput = (v: Values) => ({
  name: v.name.trim(),
  description: v.description.trim(),
  permissions: v.permissions,
  apps: v.apps,
  requireTotp: v.requireTotp,
});

/**
 * 新建角色 / 编辑角色: name, description, the permissions tree and the apps. 超级管理员, and every
 * role for an operator without 角色管理 · 管理, opens read-only.
 */
export function RoleEditor({ target, onClose }: { target: number | 'new' | null; onClose: () => void }) {
  const id = typeof target === 'number' ? target : null;
  const detail = useApiQuery('/api/roles/fetch/detail', { id: id ?? 1 }, { enabled: id !== null });
  const role = id !== null ? detail.data?.role : undefined;
  const { can, superAdmin } = useGrants();
  if (role && (!role.editable || !can('roles.manage'))) return <RoleView role={role} onClose={onClose} />;
  return (
    <RoleForm
      target={target}
      role={role}
      onClose={onClose}
      grantable={superAdmin ? undefined : (permission) => can(permission)}
    />
  );
}

function RoleForm({
  target,
  role,
  onClose,
  grantable,
}: {
  target: number | 'new' | null;
  role: Role | undefined;
  onClose: () => void;
  grantable?: (permission: Permission) => boolean;
}) {
  const [form] = Form.useForm<Values>();
  const make = useApiAction('/api/roles/make');
  const update = useApiAction('/api/roles/update');
  const save = useEditor({
    form,
    target,
    record: role,
    blank,
    toValues,
    toInput,
    make: make.mutate,
    update: update.mutate,
    onClose,
  });
  const editing = typeof target === 'number';

  return (
    <EditorDrawer
      title={editing ? '编辑角色' : '新建角色'}
      open={target !== null}
      onClose={onClose}
      onSave={() => void save()}
      saving={make.isPending || update.isPending}
      loading={editing && !role}
      width={720}
    >
      {role?.builtin ? (
        <Alert
          type="info"
          showIcon
          style={{ marginBottom: 16 }}
          title="内置角色"
          description="内置角色可以修改权限与应用，但不能删除。"
        />
      ) : null}
      <Form form={form} name="role" layout="vertical" autoComplete="off" initialValues={blank}>
        <Form.Item label="角色名称" name="name" rules={formRules(rolesRules.name)}>
          <Input placeholder="例如：财务" showCount {...inputLimits(rolesRules.name)} />
        </Form.Item>
        <Form.Item label="角色说明" name="description" rules={formRules(rolesRules.description)}>
          <Input.TextArea
            autoSize={{ minRows: 2, maxRows: 4 }}
            placeholder="这个角色负责什么（可不填）"
            showCount
            {...inputLimits(rolesRules.description)}
          />
        </Form.Item>
        <Form.Item
          label="可见应用"
          name="apps"
          rules={[appScopeRule]}
          extra="全部应用包括以后登记的应用；指定应用时，持有该角色的操作员只能看到和操作这些应用的数据"
        >
          <AppScopeField />
        </Form.Item>
        <Form.Item
          label="登录需二次验证"
          name="requireTotp"
          valuePropName="checked"
          extra="开启后，持有该角色的操作员登录时须输入动态验证码"
        >
          <Switch checkedChildren="需要" unCheckedChildren="不需要" />
        </Form.Item>
        <Form.Item
          label="权限"
          name="permissions"
          extra={
            grantable
              ? '勾选任一操作会同时勾选该页的「查看」；灰色的是你自己没有的权限，不能授予'
              : '勾选任一操作会同时勾选该页的「查看」；标「敏感」的操作请只交给确实需要的人'
          }
        >
          <PermissionTree grantable={grantable} />
        </Form.Item>
      </Form>
    </EditorDrawer>
  );
}

/** A role shown, not edited: 超级管理员 (it holds everything, always), or for an operator who may only look. */
function RoleView({ role, onClose }: { role: Role; onClose: () => void }) {
  const mobile = useIsMobile();
  return (
    <Drawer title={`查看角色：${role.name}`} open onClose={onClose} size={mobile ? '100%' : 720} destroyOnHidden>
      {role.builtin === 'super' ? (
        <Alert
          type="info"
          showIcon
          style={{ marginBottom: 16 }}
          title="超级管理员不可修改"
          description="超级管理员拥有全部权限与全部应用（包括以后新增的），不能修改，也不能删除；站点至少保留一位启用中的超级管理员。"
        />
      ) : null}
      <Descriptions
        bordered
        size="small"
        column={1}
        style={{ marginBottom: 16 }}
        items={[
          { key: 'name', label: '角色名称', children: role.name },
          { key: 'description', label: '角色说明', children: role.description || '（无）' },
          {
            key: 'apps',
            label: '可见应用',
            children: role.apps === null ? '全部应用' : <AppNames codes={role.apps} />,
          },
          { key: 'totp', label: '登录需二次验证', children: role.requireTotp ? '需要' : '不需要' },
          { key: 'operators', label: '操作员数', children: `${role.operators} 人` },
        ]}
      />
      <PermissionTree value={role.permissions as Permission[]} disabled />
    </Drawer>
  );
}
