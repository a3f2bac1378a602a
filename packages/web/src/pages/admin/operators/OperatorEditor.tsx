import type { ApiOutput } from '@appdesk/contract/types';
import { Alert, Checkbox, Form, Input, Space, Tooltip } from 'antd';
import { useApiAction, useApiQuery } from '../../../api/hooks';
import { AppScopeField, appScopeRule } from '../../../components/admin/AppScopeField';
import { EditorDrawer } from '../../../components/admin/EditorDrawer';
import type { InitialPassword } from '../../../components/admin/InitialPasswordModal';
import { useEditor } from '../../../components/admin/useEditor';
import { formRules, inputLimits, phoneRules, rules } from '../../../components/rules';

type Operator = ApiOutput<'/api/operators/fetch/page'>['list'][number];
type RoleOption = ApiOutput<'/api/operators/fetch/roles'>['list'][number];

interface Values {
  phone: string;
  nickname: string;
  roleIds: number[];
  apps: string[] | null;
}

const blank: Values = { phone: '', nickname: '', roleIds: [], apps: null };

const toValues = (o: Operator): Values => ({
  phone: o.phone,
  nickname: o.nickname,
  roleIds: o.roles.map((r) => r.id),
  apps: o.apps,
});

const toInput = (v: Values) => ({
  phone: v.phone.trim(),
  nickname: v.nickname.trim(),
  roleIds: [...v.roleIds].sort((a, b) => a - b),
  apps: v.apps,
});

/** A role to tick: its name and what it is for; one the editing operator may not hand out is greyed, saying why. */
function RoleChoice({ role }: { role: RoleOption }) {
  const label = (
    <Space orientation="vertical" size={0}>
      <span>{role.name}</span>
      {role.description ? <span className="list-muted operators-role-description">{role.description}</span> : null}
    </Space>
  );
  return (
    <Checkbox value={role.id} disabled={!role.grantable}>
      {role.why ? <Tooltip title={`不能授予：${role.why}`}>{label}</Tooltip> : label}
    </Checkbox>
  );
}

/**
 * 新建操作员 / 编辑操作员: the account (phone and nickname; a new one gets a random initial password,
 * shown once), its roles and its own limit on apps.
 */
export function OperatorEditor({
  target,
  operator,
  onClose,
  onMade,
}: {
  target: number | 'new' | null;
  operator: Operator | undefined;
  onClose: () => void;
  onMade: (made: InitialPassword) => void;
}) {
  const [form] = Form.useForm<Values>();
  const roles = useApiQuery('/api/operators/fetch/roles', {}, { enabled: target !== null });
  const make = useApiAction('/api/operators/make', { success: false });
  const update = useApiAction('/api/operators/update');
  const editing = typeof target === 'number';
  const save = useEditor({
    form,
    target,
    record: operator,
    blank,
    toValues,
    toInput,
    make: (input, then) =>
      make.mutate(input, {
        onSuccess: ({ operator: made, password }) => {
          then.onSuccess();
          onMade({ phone: made.phone, password });
        },
      }),
    // The phone is the account's: not changed here.
    update: ({ phone: _phone, ...changes }, then) => update.mutate(changes, then),
    onClose,
  });
  const noRoles = Form.useWatch('roleIds', form)?.length === 0;

  return (
    <EditorDrawer
      title={editing ? '编辑操作员' : '新建操作员'}
      open={target !== null}
      onClose={onClose}
      onSave={() => void save()}
      saving={make.isPending || update.isPending}
      loading={editing && !operator}
    >
      <Form form={form} name="operator" layout="vertical" autoComplete="off" initialValues={blank}>
        <Form.Item
          label="手机号"
          name="phone"
          rules={editing ? undefined : phoneRules}
          extra={editing ? undefined : '用于登录；保存后生成随机初始密码（只显示一次），首次登录须先修改'}
        >
          <Input disabled={editing} inputMode="numeric" maxLength={11} placeholder="11 位手机号" />
        </Form.Item>
        <Form.Item label="昵称" name="nickname" rules={formRules(rules.nickname)}>
          <Input placeholder="例如：财务小张" showCount {...inputLimits(rules.nickname)} />
        </Form.Item>
        <Form.Item label="角色" name="roleIds" extra="可以选多个角色，权限取并集；灰色的角色含有你自己没有的权限或应用">
          <Checkbox.Group style={{ display: 'flex', flexDirection: 'column', gap: 8 }}>
            {(roles.data?.list ?? []).map((role) => (
              <RoleChoice key={role.id} role={role} />
            ))}
          </Checkbox.Group>
        </Form.Item>
        {noRoles ? (
          <Alert
            type="warning"
            showIcon
            style={{ marginBottom: 16 }}
            title="没有角色的操作员可以登录后台，但看不到任何菜单"
          />
        ) : null}
        <Form.Item
          label="可见应用"
          name="apps"
          rules={[appScopeRule]}
          extra="在角色可见的应用之内再限定；按角色即不另外限定"
        >
          <AppScopeField allLabel="按角色（不另外限定）" />
        </Form.Item>
      </Form>
    </EditorDrawer>
  );
}
