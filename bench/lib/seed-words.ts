// The words the seed builds nicknames, messages and operation-log rows from.

export const SURNAMES = [...'王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾萧田董潘袁'];
export const GIVEN = [...'伟芳娜敏静丽强磊军洋勇艳杰娟涛明超秀霞平刚桂英华玉萍红鹏飞辉宇轩浩然子涵欣怡梓萱雨晨一诺'];
export const ADJECTIVES = [
  '快乐的',
  '安静的',
  '勇敢的',
  '爱吃鱼的',
  '会飞的',
  '迷路的',
  '早起的',
  '想睡觉的',
  '认真的',
  '发光的',
];
export const NOUNS = [
  '小猫',
  '熊猫',
  '兔子',
  '星星',
  '月亮',
  '咸鱼',
  '程序员',
  '旅行者',
  '摄影师',
  '向日葵',
  '橘子',
  '云朵',
];
export const TITLES = [
  '系统通知',
  '会员即将到期',
  '签到领金币活动开始啦',
  '新版本已发布',
  '好评奖励已到账',
  '兑换成功通知',
  '账号安全提醒',
  '意见反馈已回复',
];
export const BODIES = [
  '感谢您使用滚动截屏，本次更新修复了若干问题，并提升了长截图的拼接速度。',
  '您的会员将在 3 天后到期，现在续费可享 8 折优惠。',
  '连续签到 7 天可领取 100 金币，快来参与吧！',
  '您提交的应用商店好评已审核通过，奖励金币已发放到您的账户。',
  '您兑换的商品已发货，请留意短信通知。',
  '检测到您的账号在新设备上登录，如非本人操作请及时修改密码。',
  '您的意见我们已经收到并处理，感谢您的支持与反馈。',
];

/** Operation-log rows as the users, ledger and message pages write them (target type, action). */
export const AUDIT_ACTIONS = [
  ['user', 'users.block', 'status'],
  ['user', 'users.unblock', 'status'],
  ['user', 'users.update.coins', 'coins'],
  ['user', 'users.update.admin', 'isAdmin'],
  ['message', 'message.make', 'title'],
  ['message', 'message.block', 'blocked'],
  ['help_article', 'help.update', 'title'],
] as const;
