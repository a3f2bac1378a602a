import { type FieldRule, textRule } from '../rules';

/** 角色管理's own field limits: its contract entry's schemas and the role editor are built from these. */
export const rolesRules = {
  name: textRule('角色名称', 1, 20),
  description: textRule('角色说明', 0, 200),
} as const satisfies Record<string, FieldRule>;
