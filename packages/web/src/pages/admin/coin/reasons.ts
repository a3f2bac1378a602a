import { coinReasons } from '@appdesk/contract/constants';
import type { CoinReason } from '@appdesk/contract/types';

export const coinReasonLabels = Object.fromEntries(coinReasons.map((r) => [r.value, r.label])) as Record<
  CoinReason,
  string
>;

export const coinReasonOptions = coinReasons.map(({ value, label }) => ({ value, label }));

export const coinReasonLabel = (reason: string): string =>
  (coinReasonLabels as Record<string, string>)[reason] ?? reason;
