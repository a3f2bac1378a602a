import { screenshots } from '@appdesk/e2e/shots';
import { ensureSiteReady, signInAdmin } from '@appdesk/e2e/support';
import { expect, test } from '@playwright/test';
import { makeExtensibleWav, makeMp3, makeWav } from '../../../../../server/test/media';

/**
 * Sound effects end to end: an mp3 and two wavs uploaded together show their durations (tenths of
 * a second under a minute, then m:ss) and encodings in words (an extensible WAV's PCM too), one
 * plays (and only one at a time), and the mp3 sent again is offered instead of kept twice.
 */
test.describe.configure({ mode: 'serial' });

test('an operator uploads an mp3 and a wav, plays one, and is offered the existing mp3 again', async ({ page }) => {
  const stamp = Date.now() % 1_000_000;
  const category = `音效${stamp}`;
  const mp3 = { name: `金币${stamp}.mp3`, mimeType: 'audio/mpeg', buffer: Buffer.from(makeMp3(3, stamp % 200)) };
  const wav = { name: `点击${stamp}.wav`, mimeType: 'audio/wav', buffer: Buffer.from(makeWav(65, 8000, stamp)) };
  const short = {
    name: `短促${stamp}.wav`,
    mimeType: 'audio/wav',
    buffer: Buffer.from(makeExtensibleWav(0.3, 8000, stamp + 1)),
  };
  await ensureSiteReady();
  await signInAdmin(page);
  await page.goto('/admin/admin/soundeffect');
  await page.getByRole('button', { name: '上传音效' }).click();
  const dialog = page.getByRole('dialog', { name: '上传音效' });
  await dialog.getByLabel('分类').fill(category);
  await dialog.locator('input[type=file]').setInputFiles([mp3, wav, short]);
  await expect(dialog.locator('.multi-upload-done')).toHaveCount(3);
  await dialog.getByRole('button', { name: '关闭' }).click();
  await expect(dialog).toBeHidden();

  await page.getByLabel('分类').click();
  await page.getByTitle(`${category}（3）`).click();
  await expect(page).toHaveURL(/category=/);
  const mp3Row = page.locator('.ant-table-row', { hasText: `金币${stamp}` });
  const wavRow = page.locator('.ant-table-row', { hasText: `点击${stamp}` });
  const shortRow = page.locator('.ant-table-row', { hasText: `短促${stamp}` });
  await expect(mp3Row).toContainText(/[23]\.\d 秒/);
  await expect(mp3Row).toContainText('MPEG 1 Layer 3');
  await expect(wavRow).toContainText('1:05');
  await expect(wavRow).toContainText('PCM');
  await expect(shortRow).toContainText('0.3 秒');
  await expect(shortRow.locator('.sound-codec')).toContainText(/^PCM/);

  // One player: starting the wav stops the mp3.
  await mp3Row.getByRole('button', { name: `播放 金币${stamp}` }).click();
  await expect(mp3Row.getByRole('button', { name: `暂停 金币${stamp}` })).toBeVisible();
  await wavRow.getByRole('button', { name: `播放 点击${stamp}` }).click();
  await expect(wavRow.getByRole('button', { name: `暂停 点击${stamp}` })).toBeVisible();
  await expect(mp3Row.getByRole('button', { name: `播放 金币${stamp}` })).toBeVisible();
  await screenshots(page, 'soundeffect');
  await wavRow.getByRole('button', { name: `暂停 点击${stamp}` }).click();

  // The same mp3 again: the existing one is offered, nothing new is kept.
  await page.getByRole('button', { name: '上传音效' }).click();
  await expect(dialog).toBeVisible();
  await dialog.locator('input[type=file]').setInputFiles([{ ...mp3, name: `副本${stamp}.mp3` }]);
  await expect(dialog.locator('.multi-upload-done')).toContainText(`已有相同的音效「金币${stamp}」`);
  const offer = page.getByRole('dialog', { name: '已有相同的音效' });
  await expect(offer).toBeVisible();
  await screenshots(page, 'soundeffect-duplicate');
  await offer.getByRole('button', { name: '查看已有音效' }).click();
  await expect(offer).toBeHidden();
  await expect(dialog).toBeHidden();
  await expect(page).toHaveURL(new RegExp(`search=${encodeURIComponent(`金币${stamp}`)}`));
  await expect(page.locator('.ant-table-row')).toHaveCount(1);
});
