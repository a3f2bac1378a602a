import { DEFAULT_APP } from '@appdesk/contract/constants';
import { Select, type SelectProps } from 'antd';
import type { ColumnType } from 'antd/es/table';
import { useMemo, useState } from 'react';
import { useApps, useCurrentApp } from '../../state/apps';

/*
 * Apps in the console's forms and tables: always by name (the codes are data, 应用管理), and a new
 * record starts in the app the header's switcher works in.
 */

/** The app a new record starts in: the switcher's, or the first app (滚动截屏) under 全部应用. */
export function useNewRecordApp(): string {
  return useCurrentApp() ?? DEFAULT_APP;
}

/**
 * An app a page's own picker chose, starting from the app a new record starts in; a pick holds
 * until the header's app changes (the header then decides again).
 */
export function usePickedApp(): [string, (app: string) => void] {
  const currentApp = useCurrentApp();
  const newApp = useNewRecordApp();
  const [picked, setPicked] = useState<{ app: string; under: string | undefined }>();
  const app = (picked?.under === currentApp ? picked?.app : undefined) ?? newApp;
  return [app, (next) => setPicked({ app: next, under: currentApp })];
}

/**
 * An editor's blank values with `app` set to the app a new record starts in (useEditor fills a new
 * form with them), so 新建 under 名言 makes a 名言 record; the operator may still pick another.
 */
export function useBlankInApp<V extends { app?: unknown }>(blank: V): V {
  const app = useNewRecordApp();
  return useMemo(() => ({ ...blank, app }), [blank, app]);
}

/** A select of the apps by name (disabled apps marked 已停用), for a form's `app` field; `mode="multiple"` for several. */
export function AppSelect(props: Omit<SelectProps, 'options'>) {
  const { options, loaded } = useApps();
  return (
    <Select
      placeholder="选择应用"
      showSearch={{ optionFilterProp: 'label' }}
      loading={!loaded}
      {...props}
      options={options}
    />
  );
}

/** An app's name for its code (the code itself only when no app has it). */
export function AppName({ code }: { code: string | null | undefined }) {
  const { nameOf } = useApps();
  return code ? nameOf(code) : <span className="list-muted">-</span>;
}

/** Several apps' names, joined with 、. */
export function AppNames({ codes }: { codes: readonly string[] | null | undefined }) {
  const { nameOf } = useApps();
  return codes?.length ? codes.map(nameOf).join('、') : <span className="list-muted">-</span>;
}

/** A table column of a record's app (or apps, for a list of codes), shown by name. */
export function appColumn<Row>(key: keyof Row & string = 'app' as keyof Row & string, title = '应用'): ColumnType<Row> {
  return {
    title,
    dataIndex: key,
    key,
    render: (value: string | readonly string[] | null) =>
      Array.isArray(value) ? <AppNames codes={value} /> : <AppName code={value as string | null} />,
  };
}
