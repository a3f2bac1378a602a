import { BellOutlined } from '@ant-design/icons';
import { relativeTime } from '@appdesk/contract/format';
import type { Notice } from '@appdesk/contract/types';
import { Button, Empty, Popover, Spin } from 'antd';
import { useState } from 'react';
import { clearNotices, fetchNotices, fetchUnreadMessages, globalStore, noticeTotal } from '../../state/global';
import { userStore } from '../../state/session';
import { useStore } from '../../state/store';
import { usePageOpens } from './PageLink';

/** In the order the groups are shown: the to-dos first, then what others wrote. */
const typeLabels: Record<Notice['type'], string> = {
  feedback: '意见反馈',
  review: '好评审核',
  exchange: '兑换发货',
  thread: '反馈工单',
  message: '站内消息',
  system: '系统通知',
};
const typeOrder = Object.keys(typeLabels);

/**
 * Header bell, the operator's to-do list: notifyCount badge (the items of every notice), notices
 * grouped by type (the dashboard's to-dos first) with 清空 per type. A to-do whose page the
 * operator's roles do not open is not theirs: it is neither listed nor counted.
 */
export function NoticeBell({ onOpenLink }: { onOpenLink: (link: string) => void }) {
  const allNotices = useStore(globalStore, (s) => s.notices);
  const fetching = useStore(globalStore, (s) => s.fetchingNotices);
  const opens = usePageOpens();
  const notices = allNotices.filter((notice) => !notice.link || opens(notice.link));
  // notifyCount counts every notice; the badge counts those shown.
  const count = noticeTotal(notices);
  const unreadTotal = useStore(userStore, (s) => s.unreadTotal);
  const [open, setOpen] = useState(false);

  const groups = new Map<Notice['type'], Notice[]>();
  const ordered = [...notices].sort((a, b) => typeOrder.indexOf(a.type) - typeOrder.indexOf(b.type));
  for (const notice of ordered) groups.set(notice.type, [...(groups.get(notice.type) ?? []), notice]);

  const content = (
    <div className="notice-panel">
      <Spin spinning={fetching} delay={200}>
        <div className="notice-inbox">
          <span>{unreadTotal > 0 ? `你有 ${unreadTotal} 条未读站内消息` : '没有未读站内消息'}</span>
          <Button
            size="small"
            type="link"
            onClick={() => {
              setOpen(false);
              onOpenLink('/admin/admin/inbox');
            }}
          >
            消息中心
          </Button>
        </div>
        {groups.size === 0 ? (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="没有待办事项" />
        ) : (
          [...groups.entries()].map(([type, items]) => (
            <section key={type} className="notice-group" aria-label={typeLabels[type] ?? '其他通知'}>
              <div className="notice-group-head">
                <span>
                  {typeLabels[type] ?? '其他通知'}（{noticeTotal(items)}）
                </span>
                <Button size="small" type="link" onClick={() => clearNotices(type)}>
                  清空
                </Button>
              </div>
              {items.map((notice) => {
                const body = (
                  <>
                    <span className="notice-item-title">{notice.title}</span>
                    {notice.description ? <span className="notice-item-desc">{notice.description}</span> : null}
                    <span className="notice-item-time">{relativeTime(notice.datetime)}</span>
                  </>
                );
                const link = notice.link;
                return link ? (
                  <button
                    key={notice.id}
                    type="button"
                    className="notice-item"
                    onClick={() => {
                      setOpen(false);
                      onOpenLink(link);
                    }}
                  >
                    {body}
                  </button>
                ) : (
                  <div key={notice.id} className="notice-item">
                    {body}
                  </div>
                );
              })}
            </section>
          ))
        )}
      </Spin>
    </div>
  );

  return (
    <Popover
      trigger="click"
      // Centred under the bell and shifted into the window where it would overflow (a 390 px phone):
      // bottomRight only flips, and opened mostly off the left edge there.
      placement="bottom"
      title="通知"
      content={content}
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (next) {
          void fetchNotices();
          void fetchUnreadMessages();
        }
      }}
    >
      <Button type="text" aria-label={count > 0 ? `通知（${count} 条）` : '通知'}>
        {/*
          The count is drawn by CSS (data-count), not text: the button's name "通知（3 条）" already
          says it, and a bare "3" in its content fails axe's label-content-name-mismatch.
        */}
        <span className="notice-bell">
          <BellOutlined aria-hidden style={{ fontSize: 18 }} />
          {count > 0 ? <span className="notice-bell-count" data-count={count > 99 ? '99+' : String(count)} /> : null}
        </span>
      </Button>
    </Popover>
  );
}
