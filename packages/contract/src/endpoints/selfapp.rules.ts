import { type FieldRule, integerRule, textRule } from '../rules';

/** How many of our apps one promoted app may be shown in (a company runs a handful; the list stays a short text). */
export const MAX_SHOW_IN = 50;

/** 自家应用's own field limits: its contract entry's schemas and its page's form are built from these. */
export const selfappRules = {
  name: textRule('应用名称', 1, 30),
  description: textRule('应用简介', 0, 200),
  packageId: textRule('安卓包名', 0, 100, {
    pattern: /^(|[A-Za-z][A-Za-z0-9_]*(\.[A-Za-z][A-Za-z0-9_]*)+)$/,
    patternMessage: '安卓包名应形如 com.example.app',
  }),
  installReward: integerRule('安装奖励金币', 0, 1_000_000),
} as const satisfies Record<string, FieldRule>;
