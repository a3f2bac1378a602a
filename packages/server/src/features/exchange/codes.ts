import { MAX_CODES_PER_IMPORT } from '@appdesk/contract/constants';
import { fail } from '../../http/errors';

/** The first column of an .xlsx file's first sheet, as text (a header row like "兑换码" is dropped later). */
async function xlsxColumn(base64: string): Promise<string[]> {
  const { default: ExcelJS } = await import('exceljs'); // loaded on first use, as in http/export.ts
  const workbook = new ExcelJS.Workbook();
  try {
    await workbook.xlsx.load(Buffer.from(base64, 'base64') as unknown as ArrayBuffer);
  } catch {
    throw fail.badInput('文件不是有效的 .xlsx 表格');
  }
  const sheet = workbook.worksheets[0];
  if (!sheet) return [];
  const values: string[] = [];
  sheet.eachRow((row) => {
    const cell = row.getCell(1);
    values.push(cell.text ?? '');
  });
  return values;
}

const codePattern = /^[\x21-\x7e]{1,64}$/;

/**
 * The codes of an import: pasted text or CSV (one per line or comma), or an .xlsx file's first
 * column; trimmed, without blanks, header words and repeats. Refuses anything that is not a
 * printable code of at most 64 characters, naming the first one.
 */
export async function parseCodes(input: { text: string; xlsxBase64: string }): Promise<string[]> {
  const raw = input.xlsxBase64 ? await xlsxColumn(input.xlsxBase64) : input.text.split(/[\r\n,;\t]+/);
  const codes = [
    ...new Set(
      raw.map((c) => c.trim().replace(/^"(.*)"$/, '$1')).filter((c) => c && !/^(兑换码|code|codes)$/i.test(c)),
    ),
  ];
  if (codes.length === 0) throw fail.badInput('没有找到兑换码：请每行粘贴一个，或上传第一列是兑换码的表格');
  if (codes.length > MAX_CODES_PER_IMPORT) {
    throw fail.badInput(`一次最多导入 ${MAX_CODES_PER_IMPORT.toLocaleString('zh-CN')} 个兑换码，请分批导入`);
  }
  const bad = codes.find((c) => !codePattern.test(c));
  if (bad !== undefined) {
    throw fail.badInput(`兑换码“${bad.slice(0, 20)}”格式不正确：只能是不含空格的字母、数字和符号，最多 64 个字符`);
  }
  return codes;
}
