import { z } from 'zod';
import { endpoint } from '../endpoint';
import { empty, passwordDigest, phone, text } from '../fields';

export const allocation = z
  .object({
    logo: z.string().nullable().meta({ title: 'Logo 图片地址' }),
    service: z.string().nullable().meta({ title: '客服图片地址' }),
    title: z.string(),
    qq: z.string(),
    slogen: z.string(),
    about: z.string(),
    isInit: z.boolean(),
  })
  .meta({ title: '站点配置' });
export type Allocation = z.infer<typeof allocation>;

const allocationOut = z.object({ allocation });

export const siteTitle = text('站点标题', 1, 40);
export const slogen = text('标语', 0, 120);
export const qq = z
  .string({ error: 'QQ 号必须是字符串' })
  .trim()
  .regex(/^(|[1-9]\d{4,11})$/, { error: 'QQ 号应为 5 到 12 位数字' })
  .meta({ title: 'QQ 号' });
export const about = text('关于我们', 0, 5000);

export const allocationEndpoints = {
  '/api/allocation/fetch': endpoint({
    access: 'public',
    summary: '读取站点配置',
    input: empty,
    output: allocationOut,
  }),
  '/api/allocation/init': endpoint({
    access: 'public',
    summary: '首次初始化站点并创建第一个管理员（只能成功一次）',
    input: z.object({ phone, password: passwordDigest, title: siteTitle, slogen }),
    output: allocationOut,
  }),
  '/api/allocation/update/logo': endpoint({
    access: 'admin',
    summary: '上传站点 Logo',
    input: empty,
    output: allocationOut,
    upload: { field: 'logo', kind: 'image' },
  }),
  '/api/allocation/update/service': endpoint({
    access: 'admin',
    summary: '上传客服图片',
    input: empty,
    output: allocationOut,
    upload: { field: 'service', kind: 'image' },
  }),
  '/api/allocation/update/title': endpoint({
    access: 'admin',
    summary: '修改站点标题',
    input: z.object({ title: siteTitle }),
    output: allocationOut,
  }),
  '/api/allocation/update/qq/account': endpoint({
    access: 'admin',
    summary: '修改客服 QQ 号',
    input: z.object({ qq }),
    output: allocationOut,
  }),
  '/api/allocation/update/slogen': endpoint({
    access: 'admin',
    summary: '修改站点标语',
    input: z.object({ slogen }),
    output: allocationOut,
  }),
  '/api/allocation/update/about': endpoint({
    access: 'admin',
    summary: '修改关于我们',
    input: z.object({ about }),
    output: allocationOut,
  }),
};
