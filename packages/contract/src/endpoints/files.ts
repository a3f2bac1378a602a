import { z } from 'zod';
import { fileKinds } from '../constants';
import { auditTarget, endpoint } from '../endpoint';
import {
  choice,
  empty,
  exactTotal,
  id,
  isoTime,
  listExport,
  order,
  page,
  paged,
  search,
  size,
  sortBy,
} from '../fields';

/**
 * Uploaded files (docs/spec-notes.md#7-requests: the upload state is a list and its total). Every stored upload has
 * a row; `files/update` takes app packages, `finder/single` any accepted image, audio or package.
 */
const target = auditTarget('file', '文件', 'upload', {
  url: { label: '文件', format: 'file' },
  key: { label: '存储位置', format: 'hidden' },
});
const fileKind = choice('文件类型', fileKinds);

/** One stored file as an upload answers it (`file.fileV` of files/update, `data` of finder/single). */
export const fileView = z
  .object({
    id,
    url: z.string().meta({ title: '访问地址', description: '相对站点根目录，例如 /files/2026-11/abc.apk' }),
    key: z.string().meta({ title: '存储键', description: '服务器生成，与客户端文件名无关' }),
    name: z.string().meta({ title: '原文件名', description: '只用于显示' }),
    size: z.number().int().meta({ title: '字节数' }),
    sha256: z.string(),
    mime: z.string(),
    kind: fileKind,
  })
  .meta({ title: '文件' });

/** A line of the uploads page: who sent it, when, and what refers to it. */
export const fileRow = fileView.extend({
  uploaderId: z.number().int().nullable(),
  uploader: z.string().meta({ title: '上传者', description: '昵称与打码的手机号' }),
  createdAt: isoTime,
  usedBy: z.array(z.string()).meta({ title: '被引用处', description: '为空时才可以删除' }),
});

const filesPage = endpoint({
  access: 'admin',
  permission: 'upload.read',
  summary: '分页查询已上传的文件（类型、文件名或 SHA-256 搜索），含上传者与被引用处',
  input: z.object({
    page,
    size,
    exactTotal,
    kind: fileKind.optional(),
    search,
    sort: sortBy(['createdAt', 'size']),
    order,
  }),
  output: paged(fileRow),
});

export const filesEndpoints = {
  '/api/files/update': endpoint({
    access: 'admin',
    permission: 'upload.upload',
    summary: '上传 App 安装包（APK、AAB、IPA，按文件内容识别；字段 file）；答复 file.fileV',
    input: empty,
    output: z.object({ file: z.object({ fileV: fileView }) }),
    placement: 'root',
    upload: { field: 'file', kind: 'package' },
    audit: { action: 'files.update', label: '上传安装包', target },
  }),
  '/api/finder/single': endpoint({
    access: 'admin',
    permission: 'upload.upload',
    summary: '上传单个文件（图片、音频或安装包，按文件内容识别；字段 file）；答复 data',
    input: empty,
    output: fileView,
    upload: { field: 'file', kind: 'any' },
    audit: { action: 'finder.single', label: '上传文件', target },
  }),
  '/api/files/fetch/page': filesPage,
  '/api/files/export': listExport(filesPage, '文件'),
  '/api/files/remove': endpoint({
    access: 'admin',
    permission: 'upload.remove',
    summary: '删除文件（仍被引用时拒绝）',
    input: z.object({ id: id.meta({ title: '文件 ID' }) }),
    output: z.null(),
    // Files 1 and 2 are the site logo and service image the allocation examples upload (in use);
    // 3 is the package files/update's example uploads.
    example: { id: 3 },
    audit: { action: 'files.remove', label: '删除文件', target },
  }),
};

export default filesEndpoints;
type FilesEndpoints = typeof filesEndpoints;
declare module '../endpoint' {
  interface EndpointRegistry extends FilesEndpoints {}
}
