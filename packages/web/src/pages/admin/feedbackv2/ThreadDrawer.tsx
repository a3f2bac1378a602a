import { PictureOutlined } from '@ant-design/icons';
import { FEEDBACK_MAX_IMAGES } from '@appdesk/contract/constants';
import { formatDateTime } from '@appdesk/contract/format';
import {
  Button,
  Descriptions,
  Drawer,
  Form,
  Input,
  Popconfirm,
  Result,
  Select,
  Skeleton,
  Space,
  Tooltip,
  Upload,
} from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useApiAction, useApiQuery } from '../../../api/hooks';
import { uploadFinder } from '../../../api/request';
import { ImageStrip } from '../../../components/admin/ImageStrip';
import { formRules, inputLimits, rules } from '../../../components/rules';
import { useIsMobile } from '../../../components/useIsMobile';
import { useApps } from '../../../state/apps';
import { fetchNotices } from '../../../state/global';
import { lacking, useGrants } from '../../../state/grants';
import { CategoryTag, ThreadStatusTag } from './parts';

type Image = { id: number; url: string };

/** One thread: every post (the user's left, operators' right), and the reply box with canned replies. */
export function ThreadDrawer({ id, onClose }: { id: number | null; onClose: () => void }) {
  const mobile = useIsMobile();
  const { nameOf } = useApps();
  const enabled = id !== null;
  const detail = useApiQuery('/api/feedbackv2/fetch/detail', { id: id ?? 1 }, { enabled });
  const canned = useApiQuery('/api/feedbackv2/canned/fetch', {}, { enabled });
  const operators = useApiQuery('/api/feedbackv2/fetch/operators', {}, { enabled });
  const read = useApiAction('/api/feedbackv2/read', { success: false });
  const reply = useApiAction('/api/feedbackv2/reply');
  const close = useApiAction('/api/feedbackv2/close');
  const assign = useApiAction('/api/feedbackv2/assign', { success: '负责人已更新' });
  const [form] = Form.useForm<{ content: string }>();
  const [cannedId, setCannedId] = useState<number | undefined>();
  const [images, setImages] = useState<Image[]>([]);
  const [uploading, setUploading] = useState(false);
  const marked = useRef(new Set<number>());
  // Replying, assigning, closing and marking read are 反馈工单 · 回复、分配与关闭; images need 文件管理 · 上传文件.
  const { canCall } = useGrants();
  const canReply = canCall('/api/feedbackv2/reply');
  const canUpload = canCall('/api/finder/single');

  const thread = detail.data?.thread;
  // Opening a thread with new posts from the user reads them: it leaves the header bell.
  const readMutate = read.mutate;
  useEffect(() => {
    if (!thread?.unread || marked.current.has(thread.id) || !canReply) return;
    marked.current.add(thread.id);
    readMutate({ id: thread.id }, { onSuccess: () => void fetchNotices() });
  }, [thread?.id, thread?.unread, readMutate, canReply]);

  useEffect(() => {
    if (id === null) return;
    form.resetFields();
    setCannedId(undefined);
    setImages([]);
  }, [id, form]);

  const send = async () => {
    const values = await form.validateFields().catch(() => null);
    if (!values || id === null) return;
    reply.mutate(
      { id, content: values.content.trim(), images: images.map((i) => i.id), ...(cannedId ? { cannedId } : {}) },
      {
        onSuccess: () => {
          form.resetFields();
          setCannedId(undefined);
          setImages([]);
          void fetchNotices();
        },
      },
    );
  };

  const addImage = async (file: File) => {
    setUploading(true);
    try {
      const answer = await uploadFinder(file);
      const data = answer.data as Image | undefined;
      if (answer.code === 200 && data) setImages((list) => [...list, { id: data.id, url: data.url }]);
    } catch {
      // The upload helper has told the operator.
    } finally {
      setUploading(false);
    }
  };

  return (
    <Drawer
      title={thread ? `反馈会话 #${thread.id}` : '反馈会话'}
      open={enabled}
      onClose={onClose}
      size={mobile ? '100%' : 680}
      destroyOnHidden
    >
      {detail.isError ? (
        <Result status="404" title="会话不存在" subTitle="这个会话可能已被删除，或链接中的会话编号有误。" />
      ) : !thread || !detail.data ? (
        <Skeleton active />
      ) : (
        <>
          <div className="thread-toolbar">
            <ThreadStatusTag status={thread.status} />
            <CategoryTag category={thread.category} />
            <Select
              aria-label="负责人"
              style={{ minWidth: 160 }}
              value={thread.assigneeId ?? 0}
              loading={assign.isPending}
              disabled={!canCall('/api/feedbackv2/assign')}
              options={[
                { value: 0, label: '未分配' },
                ...(operators.data?.list ?? []).map((o) => ({ value: o.id, label: `负责人：${o.name}` })),
              ]}
              onChange={(value: number) => assign.mutate({ id: thread.id, assigneeId: value || null })}
            />
            {thread.status === 'closed' || !canCall('/api/feedbackv2/close') ? null : (
              <Popconfirm
                title="关闭会话"
                description="关闭后用户仍能看到全部留言；用户再次留言会重新打开。"
                okText="关闭"
                cancelText="取消"
                onConfirm={() => close.mutate({ id: thread.id }, { onSuccess: () => void fetchNotices() })}
              >
                <Button loading={close.isPending}>关闭会话</Button>
              </Popconfirm>
            )}
          </div>
          <Descriptions size="small" column={mobile ? 1 : 2} className="thread-facts">
            <Descriptions.Item label="用户">{`${thread.user}（ID ${thread.userId}）`}</Descriptions.Item>
            <Descriptions.Item label="应用">{nameOf(thread.app)}</Descriptions.Item>
            <Descriptions.Item label="设备">
              {[thread.version && `v${thread.version}`, thread.deviceModel, thread.osVersion]
                .filter(Boolean)
                .join(' · ') || '未提供'}
            </Descriptions.Item>
          </Descriptions>
          <div className="thread-posts">
            {detail.data.posts.map((p) => (
              <div key={p.id} className={`thread-post${p.from === 'admin' ? ' thread-post-admin' : ''}`}>
                <div className="thread-post-head">
                  {p.from === 'admin' ? `客服 ${p.author}` : `用户 ${p.author}`} · {formatDateTime(p.createdAt)}
                </div>
                <div className="thread-post-body">{p.content}</div>
                <ImageStrip images={p.images} size={72} />
              </div>
            ))}
          </div>
          {canReply ? (
            <Form form={form} name="thread-reply" layout="vertical" autoComplete="off" initialValues={{ content: '' }}>
              <Select
                aria-label="快捷回复"
                placeholder={
                  canned.data?.list.length ? '选择快捷回复' : '还没有快捷回复模板，可在列表页“快捷回复模板”中添加'
                }
                style={{ width: '100%', marginBottom: 8 }}
                value={cannedId}
                allowClear
                options={(canned.data?.list ?? []).map((c) => ({ value: c.id, label: c.title }))}
                onChange={(value?: number) => {
                  setCannedId(value);
                  const chosen = canned.data?.list.find((c) => c.id === value);
                  if (chosen) form.setFieldsValue({ content: chosen.content });
                }}
              />
              <Form.Item label="回复内容" name="content" rules={formRules(rules.feedbackReply)}>
                <Input.TextArea
                  placeholder="回复用户，用户会在 App 的反馈会话里看到"
                  {...inputLimits(rules.feedbackReply)}
                  showCount
                  autoSize={{ minRows: 3, maxRows: 8 }}
                />
              </Form.Item>
              <ImageStrip images={images} />
              <Space wrap style={{ marginTop: 8 }}>
                <Upload
                  accept="image/png,image/jpeg,image/gif,image/webp"
                  showUploadList={false}
                  disabled={images.length >= FEEDBACK_MAX_IMAGES || !canUpload}
                  customRequest={({ file }) => void addImage(file as File)}
                >
                  <Tooltip title={canUpload ? null : `添加图片${lacking('/api/finder/single')}`}>
                    <Button
                      icon={<PictureOutlined aria-hidden />}
                      loading={uploading}
                      disabled={images.length >= FEEDBACK_MAX_IMAGES || !canUpload}
                    >
                      添加图片（{images.length}/{FEEDBACK_MAX_IMAGES}）
                    </Button>
                  </Tooltip>
                </Upload>
                {images.length ? <Button onClick={() => setImages([])}>清除图片</Button> : null}
                <Button type="primary" loading={reply.isPending} onClick={() => void send()}>
                  发送回复
                </Button>
              </Space>
            </Form>
          ) : null}
        </>
      )}
    </Drawer>
  );
}
