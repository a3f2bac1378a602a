import { newUserRow } from '../../core/new-user';
import { checkChosenPassword } from '../../core/operator-password';
import { enrolSuperAdmin } from '../../core/operators';
import { hashPassword } from '../../core/passwords';
import type { RequestContext } from '../../http/context';
import { fail } from '../../http/errors';
import { defineRoutes } from '../../http/route';
import {
  fetchAllocation,
  forgetAllocation,
  presentAllocation,
  presentSettings,
  readAllocation,
  type SettingField,
  settingColumns,
  updateAllocation,
} from './service';

const alreadyInitialised = () => fail.conflict('站点已经初始化，不能重复初始化');

type Field = 'logo' | 'service' | 'title' | 'qq' | 'slogen' | 'about';

/** Saves one field, audits it, and answers the new configuration. */
async function saveField(ctx: RequestContext, field: Field, value: string) {
  const { before, after } = await updateAllocation(ctx.db, { [field]: value });
  forgetAllocation(ctx);
  await ctx.audit({
    targetId: 1,
    before: { [field]: before[field] },
    after: { [field]: after[field] },
  });
  // A replaced image goes once this commits, unless something else shows it.
  if ((field === 'logo' || field === 'service') && before[field] !== value) ctx.releaseFile(before[field]);
  return { allocation: presentAllocation(after) };
}

function uploadedUrl(ctx: RequestContext): string {
  if (!ctx.file) throw fail.badInput('缺少上传文件');
  return ctx.file.url;
}

export default defineRoutes({
  '/api/allocation/fetch': {
    handler: async (_input, ctx) => ({ allocation: await fetchAllocation(ctx) }),
  },

  '/api/allocation/init': {
    message: '初始化成功',
    handler: async (input, ctx) => {
      // Cheap early answer for the common repeat; the claim below is what decides races.
      if ((await readAllocation(ctx.db)).is_init === 1) throw alreadyInitialised();
      // The setup page sends the plain text too: the first operator's password meets the operator
      // rule. A script that sends only the digest is not checked (docs/permissions.md).
      if (input.plainPassword !== undefined) {
        checkChosenPassword({ is_admin: 1, phone: input.phone }, input.password, input.plainPassword);
      }
      // argon2 runs before the transaction so the database is never held while it hashes.
      const passwordHash = await hashPassword(input.password);
      return ctx.inTransaction(async (tx) => {
        const now = Date.now();
        // A conditional update only one caller can win, on both databases.
        const claimed = await tx.db
          .updateTable('allocation')
          .set({ is_init: 1, title: input.title, slogen: input.slogen, updated_at: now })
          .where('id', '=', 1)
          .where('is_init', '=', 0)
          .executeTakeFirst();
        if (Number(claimed.numUpdatedRows) !== 1) throw alreadyInitialised();
        forgetAllocation(tx);
        const admin = await tx.db
          .insertInto('users')
          .values(newUserRow({ phone: input.phone, password_hash: passwordHash, nickname: '管理员', is_admin: 1 }, now))
          .onConflict((oc) => oc.column('phone').doNothing())
          .returning('id')
          .executeTakeFirst();
        // Rolls the claim back too: the site stays uninitialised.
        if (!admin) throw fail.conflict('该手机号已被注册，请换一个手机号');
        await enrolSuperAdmin(tx.db, admin.id);
        await tx.audit({
          actorId: admin.id,
          targetId: 1,
          after: { title: input.title, slogen: input.slogen, adminId: admin.id, adminPhone: input.phone },
        });
        return { allocation: presentAllocation(await readAllocation(tx.db)) };
      });
    },
  },

  '/api/allocation/update/logo': {
    message: 'Logo 已更新',
    handler: async (_input, ctx) => saveField(ctx, 'logo', uploadedUrl(ctx)),
  },
  '/api/allocation/update/service': {
    message: '客服图片已更新',
    handler: async (_input, ctx) => saveField(ctx, 'service', uploadedUrl(ctx)),
  },
  '/api/allocation/update/title': {
    transaction: true,
    message: '站点标题已更新',
    handler: async (input, ctx) => saveField(ctx, 'title', input.title),
  },
  '/api/allocation/update/qq/account': {
    transaction: true,
    message: '客服 QQ 已更新',
    handler: async (input, ctx) => saveField(ctx, 'qq', input.qq),
  },
  '/api/allocation/update/slogen': {
    transaction: true,
    message: '标语已更新',
    handler: async (input, ctx) => saveField(ctx, 'slogen', input.slogen),
  },
  '/api/allocation/fetch/settings': {
    handler: async (_input, ctx) => ({ settings: presentSettings(await readAllocation(ctx.db)) }),
  },

  '/api/allocation/update': {
    transaction: true,
    message: '站点配置已保存',
    handler: async (input, ctx) => {
      const current = presentSettings(await readAllocation(ctx.db));
      const changed = (Object.keys(settingColumns) as SettingField[]).filter(
        (field) => input[field] !== undefined && input[field] !== current[field],
      );
      if (changed.length === 0) throw fail.badInput('没有需要保存的修改');
      const { after } = await updateAllocation(
        ctx.db,
        Object.fromEntries(changed.map((field) => [settingColumns[field], input[field]])),
      );
      forgetAllocation(ctx);
      // The legal texts are long: the log says they changed, not what they said.
      const logged = (values: Record<SettingField, string>) =>
        Object.fromEntries(
          changed.map((f) => [f, f === 'agreement' || f === 'privacy' ? `${values[f].length} 字` : values[f]]),
        );
      await ctx.audit({ targetId: 1, before: logged(current), after: logged(presentSettings(after)) });
      return { allocation: presentAllocation(after) };
    },
  },

  '/api/allocation/update/about': {
    transaction: true,
    message: '关于我们已更新',
    handler: async (input, ctx) => saveField(ctx, 'about', input.about),
  },
});
