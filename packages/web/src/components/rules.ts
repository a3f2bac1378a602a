/** Mainland China mobile number, as the server checks it. */
export const phonePattern = /^1[3-9]\d{9}$/;
export const phoneMessage = '手机号格式不正确，应为 11 位中国大陆手机号';

/** antd Form rules of a required phone field. */
export const phoneRules = [
  { required: true, message: '请输入手机号' },
  { pattern: phonePattern, message: phoneMessage },
];

/** Browser-side strength check (DESIGN.md "Identity"): at least 8 characters, letters and digits. */
export function passwordProblem(password: string): string | null {
  if (password.length < 8) return '密码至少 8 位';
  if (password.length > 64) return '密码最多 64 位';
  if (!/[A-Za-z]/.test(password) || !/\d/.test(password)) return '密码需同时包含字母和数字';
  return null;
}

/** antd Form validator for a new password. */
export const strongPasswordRule = {
  validator: (_: unknown, value: string | undefined) => {
    const problem = value ? passwordProblem(value) : null;
    return problem ? Promise.reject(new Error(problem)) : Promise.resolve();
  },
};
