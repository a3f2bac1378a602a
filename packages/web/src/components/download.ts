import type { ApiPath } from '@appdesk/contract/types';
import { notify } from '../api/notify';
import { bodyMessage, handleEnvelope, httpFailure } from '../api/request';
import { getToken } from '../state/session';

/**
 * Browser downloads: a Blob saved under a file name, the .xlsx exports (POST the filter, receive
 * the file or a JSON error envelope) and CSV files built in the browser.
 */

/** Saves `blob` as `filename` through a temporary object URL. */
export function saveBlob(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  link.rel = 'noopener';
  link.style.display = 'none';
  document.body.appendChild(link);
  link.click();
  link.remove();
  // Give the browser time to start the download before the URL goes away.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/** The file name of a Content-Disposition header: `filename*=UTF-8''…` first, then `filename="…"`. */
export function filenameFromDisposition(header: string | null, fallback: string): string {
  if (!header) return fallback;
  const extended = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(header);
  if (extended) {
    try {
      return decodeURIComponent(extended[1].trim().replace(/^"|"$/g, ''));
    } catch {
      // Malformed percent-encoding: fall through to the plain name.
    }
  }
  const plain = /filename\s*=\s*"?([^";]+)"?/.exec(header);
  return plain ? plain[1].trim() : fallback;
}

const XLSX_TYPE = 'spreadsheetml';

/**
 * POSTs `filter` to an export endpoint with the token header and downloads the .xlsx it answers.
 * A JSON answer is an error envelope: the request client's policy shows it (and ends the session
 * on 401/402/403). Returns true when a file was saved.
 */
export async function downloadExport(path: ApiPath, filter: Record<string, unknown>, fallbackName: string) {
  let response: Response;
  try {
    response = await fetch(path, {
      method: 'POST',
      credentials: 'include',
      headers: {
        Accept: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet, application/json',
        'Content-Type': 'application/json; charset=utf-8',
        token: getToken(),
      },
      body: JSON.stringify(filter),
    });
  } catch {
    void notify('error', { title: `导出失败: ${path}`, description: '网络连接失败，请检查网络后重试' });
    return false;
  }
  if (!response.ok) throw httpFailure(response.status, bodyMessage(await response.text()), path);
  const type = response.headers.get('content-type') ?? '';
  if (type.includes(XLSX_TYPE)) {
    const blob = await response.blob();
    saveBlob(blob, filenameFromDisposition(response.headers.get('content-disposition'), fallbackName));
    return true;
  }
  let body: { code: number; message?: string };
  try {
    body = (await response.json()) as { code: number; message?: string };
  } catch {
    void notify('error', { title: '导出失败', description: '服务器返回的内容既不是 Excel 文件也不是 JSON' });
    return false;
  }
  handleEnvelope(body);
  return false;
}

/** One CSV cell: quoted when it holds a comma, quote or line break; formula starters neutralised. */
function csvCell(value: string | number): string {
  let text = String(value);
  if (/^[=+\-@]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** CSV text (CRLF line ends) for a header row and data rows. */
export function toCsv(header: string[], rows: (string | number)[][]): string {
  return [header, ...rows].map((row) => row.map(csvCell).join(',')).join('\r\n');
}

/** Downloads a CSV as UTF-8 with a byte-order mark, so Excel shows Chinese correctly. */
export function downloadCsv(filename: string, header: string[], rows: (string | number)[][]): void {
  const blob = new Blob(['\uFEFF', toCsv(header, rows), '\r\n'], { type: 'text/csv;charset=utf-8' });
  saveBlob(blob, filename);
}
