/*
 * The vip feature's public module: the VIP ledger (vip_records) and the per-app expiries
 * (vip_entitlements) are written only through these, by the vip page, orders, in-app purchases and
 * the coin shop, and read through them by the users and the dashboard (test/table-ownership.test.ts).
 */
export { vipCount, vipEntitlementsOf, vipExpiries, vipExpiryColumn, vipExpiryOf, vipSegment } from './entitlements';
export { applyGrant, type Grant, type TakenBack, takeBackGrant } from './grants';
export { changeVip, DAY_MS, type VipChange, type VipResult } from './ledger';
