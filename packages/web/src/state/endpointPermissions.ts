// biome-ignore lint/style/noRestrictedImports: never bundled as written: the build replaces this module by its table (vite.config.ts).
import { endpointEntries } from '@appdesk/contract/endpoints/index';
import type { EndpointPermission } from '@appdesk/contract/permissions';

/**
 * Every admin endpoint's permission, by path (`/api/order/refund` → `order.refund`), read from the
 * contract, so a button and the server's check never disagree.
 *
 * The build does not ship this module as written: the contract's schemas (zod) would come with it.
 * vite.config.ts (endpointPermissionsTable) replaces it by the table it yields, worked out when
 * the console is built; tests and type checks read the contract as here.
 */
export const endpointPermissions: Readonly<Record<string, EndpointPermission>> = Object.fromEntries(
  endpointEntries.flatMap(([path, def]) => (def.permission ? [[path, def.permission]] : [])),
);
