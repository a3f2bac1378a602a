/**
 * What an HTTP status means, in Chinese, for an answer that says nothing itself (a proxy's HTML
 * 502, an empty 404): the description of the request error's notification. Never the browser's
 * English statusText.
 */
const meanings: Record<number, string> = {
  0: '网络连接失败，请检查网络后重试',
  400: '请求格式有误，服务器没有处理',
  401: '尚未登录或登录已失效',
  403: '没有权限访问',
  404: '接口不存在',
  405: '不支持这种请求方式',
  408: '请求超时，请稍后重试',
  413: '提交的内容过大',
  415: '不支持的内容类型',
  429: '操作过于频繁，请稍后再试',
  500: '服务器内部错误，请稍后再试',
  502: '网关错误：服务器没有正确响应，请稍后再试',
  503: '服务暂不可用，服务器可能正在重启或维护，请稍后再试',
  504: '网关超时：服务器响应太慢，请稍后再试',
};

export function statusMeaning(status: number): string {
  const known = meanings[status];
  if (known) return known;
  if (status >= 500) return '服务器暂时无法处理，请稍后再试';
  if (status >= 400) return '请求失败，服务器拒绝了这个请求';
  return '请求失败';
}
