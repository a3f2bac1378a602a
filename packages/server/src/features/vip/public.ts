/*
 * The vip feature's public module: the VIP ledger (vip_records) is written only through these, by the
 * vip page, orders, in-app purchases and the coin shop (test/table-ownership.test.ts).
 */
export { applyGrant, type Grant, type TakenBack, takeBackGrant } from './grants';
export { changeVip, DAY_MS, type VipChange, type VipResult } from './ledger';
