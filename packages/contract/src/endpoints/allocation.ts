import { z } from 'zod';
import { auditTarget, endpoint } from '../endpoint';
import { empty, passwordDigest, phone, plainPassword, textField } from '../fields';
import { rules } from '../rules';

export const allocation = z
  .object({
    logo: z.string().nullable().meta({ title: 'Logo 图片地址' }),
    service: z.string().nullable().meta({ title: '客服图片地址' }),
    title: z.string(),
    qq: z.string(),
    slogen: z.string(),
    about: z.string(),
    icp: z.string().meta({ title: 'ICP 备案号' }),
    police: z.string().meta({ title: '公安备案号' }),
    androidUrl: z.string().meta({ title: 'Android 下载地址' }),
    iosUrl: z.string().meta({ title: 'App Store 地址' }),
    hasAgreement: z.boolean().meta({ title: '已填写用户协议' }),
    hasPrivacy: z.boolean().meta({ title: '已填写隐私政策' }),
    isInit: z.boolean(),
  })
  .meta({ title: '站点配置' });
export type Allocation = z.infer<typeof allocation>;

const allocationOut = z.object({ allocation });

export const siteTitle = textField(rules.siteTitle);
export const slogen = textField(rules.slogen);
export const qq = textField(rules.qq);
export const about = textField(rules.about);
export const icp = textField(rules.icp);
export const police = textField(rules.police);
export const downloadUrl = textField(rules.downloadUrl);
export const legalText = textField(rules.legalText);
const target = auditTarget('allocation', '站点配置', 'allocation', {
  adminPhone: '管理员手机号',
  logo: { label: 'Logo 图片', format: 'file' },
  service: { label: '客服图片', format: 'file' },
});

/** The site settings one form saves together (the images have their own upload calls). */
export const siteSettings = z.object({
  title: siteTitle,
  slogen,
  qq,
  about,
  icp,
  police,
  androidUrl: downloadUrl,
  iosUrl: downloadUrl,
  agreement: legalText,
  privacy: legalText,
});
/** The digest of 'Admin12345', the first admin's password in the generated tests. */
const adminDigest = '8122cba12b897aa5546baf90b6c82c9f646f976b3555033cbc5e0b72d4f7a5bc';

export const allocationEndpoints = {
  '/api/allocation/fetch': endpoint({
    access: 'public',
    summary: '读取站点配置',
    input: empty,
    output: allocationOut,
  }),
  '/api/allocation/init': endpoint({
    access: 'public',
    summary: '首次初始化站点并创建第一个管理员（只能成功一次；带上密码原文时按操作员密码规则检查）',
    input: z.object({
      phone,
      password: passwordDigest,
      plainPassword: plainPassword.optional(),
      title: siteTitle,
      slogen,
    }),
    output: allocationOut,
    example: {
      phone: '13800000000',
      password: adminDigest,
      plainPassword: 'Admin12345',
      title: '测试站点',
      slogen: '让截图更简单',
    },
    audit: { action: 'allocation.init', label: '站点初始化', target },
  }),
  '/api/allocation/update/logo': endpoint({
    access: 'admin',
    permission: 'allocation.update',
    summary: '上传站点 Logo',
    input: empty,
    output: allocationOut,
    upload: { field: 'logo', kind: 'image' },
    audit: { action: 'allocation.update.logo', label: '修改站点 Logo', target },
  }),
  '/api/allocation/update/service': endpoint({
    access: 'admin',
    permission: 'allocation.update',
    summary: '上传客服图片',
    input: empty,
    output: allocationOut,
    upload: { field: 'service', kind: 'image' },
    audit: { action: 'allocation.update.service', label: '修改客服图片', target },
  }),
  '/api/allocation/update/title': endpoint({
    access: 'admin',
    permission: 'allocation.update',
    summary: '修改站点标题',
    input: z.object({ title: siteTitle }),
    output: allocationOut,
    example: { title: '滚动截屏官网' },
    audit: { action: 'allocation.update.title', label: '修改站点标题', target },
  }),
  '/api/allocation/update/qq/account': endpoint({
    access: 'admin',
    permission: 'allocation.update',
    summary: '修改客服 QQ 号',
    input: z.object({ qq }),
    output: allocationOut,
    example: { qq: '12345678' },
    audit: { action: 'allocation.update.qq', label: '修改客服 QQ', target },
  }),
  '/api/allocation/update/slogen': endpoint({
    access: 'admin',
    permission: 'allocation.update',
    summary: '修改站点标语',
    input: z.object({ slogen }),
    output: allocationOut,
    example: { slogen: '长截图，一步到位' },
    audit: { action: 'allocation.update.slogen', label: '修改站点标语', target },
  }),
  '/api/allocation/fetch/settings': endpoint({
    access: 'admin',
    permission: 'allocation.read',
    summary: '读取站点配置表单的全部内容（含用户协议与隐私政策的 Markdown 原文）',
    input: empty,
    output: z.object({ settings: siteSettings }),
  }),
  '/api/allocation/update': endpoint({
    access: 'admin',
    permission: 'allocation.update',
    summary: '一次保存站点配置表单（只记录改动的字段）',
    input: siteSettings.partial(),
    output: allocationOut,
    example: { icp: '京ICP备12345678号-1', androidUrl: 'https://example.com/app.apk' },
    audit: { action: 'allocation.update', label: '修改站点配置', target },
  }),
  '/api/allocation/update/about': endpoint({
    access: 'admin',
    permission: 'allocation.update',
    summary: '修改关于我们',
    input: z.object({ about }),
    output: allocationOut,
    example: { about: '我们是一家专注效率工具的小团队。' },
    audit: { action: 'allocation.update.about', label: '修改关于我们', target },
  }),
};

export default allocationEndpoints;
type AllocationEndpoints = typeof allocationEndpoints;
declare module '../endpoint' {
  interface EndpointRegistry extends AllocationEndpoints {}
}
