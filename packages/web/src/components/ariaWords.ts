/**
 * Chinese words for what screen readers hear inside antd's own markup. antd and its rc-components
 * hard-code English accessible names: every icon is `role="img" aria-label="<icon name>"` (a
 * pagination button reads "left", "double-right"), a number input's steppers are "Increase Value"
 * and "Decrease Value", a segmented switch is "segmented control". None of these can be set
 * through the locale, so one observer on the document renames them as they appear: an icon inside
 * a control that is named otherwise is hidden (it is decoration there), an icon that names its
 * control gets a Chinese word, and a control named only by its list item's title (pagination)
 * takes that title.
 */

/** Icons that can be the only content of a control, by antd's icon name. */
export const iconWords: Record<string, string> = {
  left: '向左',
  right: '向右',
  up: '向上',
  down: '展开',
  'double-left': '向前',
  'double-right': '向后',
  ellipsis: '更多',
  more: '更多',
  close: '关闭',
  'close-circle': '清除',
  check: '确定',
  'check-circle': '成功',
  'exclamation-circle': '警告',
  'info-circle': '提示',
  'question-circle': '帮助',
  loading: '加载中',
  search: '搜索',
  plus: '添加',
  minus: '减少',
  delete: '删除',
  edit: '编辑',
  eye: '显示',
  'eye-invisible': '隐藏',
  copy: '复制',
  download: '下载',
  upload: '上传',
  'cloud-upload': '上传',
  reload: '刷新',
  redo: '重做',
  setting: '设置',
  'column-height': '行高',
  fullscreen: '全屏',
  'fullscreen-exit': '退出全屏',
  'menu-fold': '收起菜单',
  'menu-unfold': '展开菜单',
  bell: '通知',
  user: '用户',
  logout: '退出登录',
  login: '登录',
  moon: '深色模式',
  sun: '浅色模式',
  sound: '声音',
  'play-circle': '播放',
  'pause-circle': '暂停',
  'arrow-up': '上移',
  'arrow-down': '下移',
  swap: '切换',
  send: '发送',
  calendar: '日期',
  'clock-circle': '时间',
  'swap-right': '至',
  filter: '筛选',
  'caret-up': '升序',
  'caret-down': '降序',
  holder: '拖动',
  picture: '图片',
  inbox: '收件箱',
  'paper-clip': '附件',
  file: '文件',
  'vertical-align-top': '回到顶部',
};

/** Controls whose English name comes from a library, with the Chinese one. */
const fixedNames: [selector: string, english: string, chinese: string][] = [
  ['.ant-input-number-action-up', 'Increase Value', '增加数值'],
  ['.ant-input-number-action-down', 'Decrease Value', '减少数值'],
  ['.ant-segmented', 'segmented control', '选项切换'],
  // Input.OTP (two-factor codes) names each box "OTP Input <n>".
  ...Array.from({ length: 8 }, (_, i): [string, string, string] => [
    '.ant-otp-input',
    `OTP Input ${i + 1}`,
    `验证码第 ${i + 1} 位`,
  ]),
];

const hasWords = (text: string | null | undefined) => Boolean(text && /[\p{L}\p{N}]/u.test(text));
const hasChinese = (text: string) => /[\u4e00-\u9fff]/.test(text);
const controlSelector = 'button, a, [role="button"], [role="tab"], [role="menuitem"], [role="option"], label';

/** The control's name apart from `icon`: its aria-label, its title, or its own text. */
function otherName(control: Element, icon: Element): boolean {
  if (hasWords(control.getAttribute('aria-label')) || hasWords(control.getAttribute('title'))) return true;
  if (control.getAttribute('aria-labelledby')) return true;
  const clone = control.cloneNode(true) as Element;
  for (const inner of clone.querySelectorAll('.anticon')) inner.remove();
  return hasWords(clone.textContent) && icon !== control;
}

function renameIcon(icon: Element): void {
  const english = icon.getAttribute('aria-label');
  if (!english || hasChinese(english)) return;
  const control = icon.closest(controlSelector);
  if (control) {
    // A control named only by the item around it: antd's pagination puts 上一页 on the <li>.
    const titled = control.closest('li[title]');
    if (!otherName(control, icon) && titled && hasWords(titled.getAttribute('title')))
      control.setAttribute('aria-label', titled.getAttribute('title') as string);
    if (otherName(control, icon)) {
      icon.removeAttribute('aria-label');
      icon.setAttribute('aria-hidden', 'true');
      return;
    }
  }
  const word = iconWords[english];
  if (word) icon.setAttribute('aria-label', word);
  else {
    icon.removeAttribute('aria-label');
    icon.setAttribute('aria-hidden', 'true');
  }
}

/** Renames the English accessible names inside `root` (and `root` itself). */
export function renameAria(root: Element): void {
  const icons = [...root.querySelectorAll('.anticon[aria-label]')];
  if (root.matches('.anticon[aria-label]')) icons.push(root);
  for (const icon of icons) renameIcon(icon);
  for (const [selector, english, chinese] of fixedNames) {
    const found = [...root.querySelectorAll(selector)];
    if (root.matches(selector)) found.push(root);
    for (const element of found)
      if (element.getAttribute('aria-label') === english) element.setAttribute('aria-label', chinese);
  }
}

let watching = false;

/** Keeps the document's accessible names Chinese from now on (once per page; later calls do nothing). */
export function watchAriaWords(doc: Document = document): void {
  if (watching || typeof MutationObserver === 'undefined') return;
  watching = true;
  renameAria(doc.body);
  new MutationObserver((records) => {
    for (const record of records) {
      if (record.type === 'attributes') renameAria(record.target as Element);
      else for (const node of record.addedNodes) if (node.nodeType === 1) renameAria(node as Element);
    }
  }).observe(doc.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['aria-label'] });
}
