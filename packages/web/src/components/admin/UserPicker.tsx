import type { ApiOutput } from '@appdesk/contract/types';
import { Select } from 'antd';
import { useEffect, useState } from 'react';
import { useApiQuery } from '../../api/hooks';
import { lacking, useGrants } from '../../state/grants';

type User = ApiOutput<'/api/users/fetch/page'>['list'][number];

/** How a user reads in the picker: nickname (if any), masked phone and ID. */
export const userLabel = (u: Pick<User, 'id' | 'nickname' | 'phone'>) =>
  `${u.nickname ? `${u.nickname} · ` : ''}${u.phone}（ID ${u.id}）`;

/** The search text after the operator stopped typing for `ms`. */
function useSettled(text: string, ms = 300) {
  const [settled, setSettled] = useState(text);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(text), ms);
    return () => clearTimeout(timer);
  }, [text, ms]);
  return settled;
}

/**
 * One user, found by phone (whole or a fragment of three digits or more), nickname or ID through
 * the users list's own search; the value is the user's ID. A form control (value / onChange).
 * Searching is reading 用户管理: without that permission the control is disabled and says so.
 */
export function UserPicker({
  value,
  onChange,
  id,
  placeholder = '输入手机号、昵称或 ID 搜索',
}: {
  value?: number | null;
  onChange?: (value: number | null) => void;
  id?: string;
  placeholder?: string;
}) {
  const [text, setText] = useState('');
  const [picked, setPicked] = useState<{ value: number; label: string } | null>(null);
  const search = useSettled(text.trim());
  const allowed = useGrants().canCall('/api/users/fetch/page');
  const found = useApiQuery(
    '/api/users/fetch/page',
    { search, page: 0, size: 20, sort: 'createdAt', order: 'descend' },
    { enabled: search.length > 0 && allowed, keepPrevious: true },
  );
  const options = search ? (found.data?.list ?? []).map((u) => ({ value: u.id, label: userLabel(u) })) : [];
  if (picked && picked.value === value && !options.some((o) => o.value === value)) options.unshift(picked);
  const searching = search.length > 0 && found.isFetching;
  return (
    <Select<number>
      id={id}
      showSearch={{ filterOption: false, onSearch: setText }}
      allowClear
      value={value ?? undefined}
      placeholder={allowed ? placeholder : `查找用户${lacking('/api/users/fetch/page')}`}
      disabled={!allowed}
      options={options}
      loading={searching}
      notFoundContent={search ? (searching ? '搜索中…' : '没有找到该用户') : '输入手机号、昵称或 ID'}
      onChange={(next, option) => {
        const chosen = Array.isArray(option) ? undefined : option;
        setPicked(next && chosen ? { value: next, label: String(chosen.label) } : null);
        onChange?.(next ?? null);
      }}
      style={{ width: '100%' }}
    />
  );
}
