export { useIsMobile } from '../useIsMobile';
export { ConfirmLink } from './ConfirmLink';
export { AgentCell, DeltaCell, TimeCell, timeColumn } from './cells';
export type { FilterField, ListViewProps } from './ListView';
export { ListView } from './ListView';
export type { ListController, ListOptions, ListValues, PagedData, SortOrder } from './useList';
export { flagValue, idValue, pageSizes, rangeValue, sortParams, useList } from './useList';
export { useScrollableTable } from './useScrollableTable';
