export { DeltaCell, TimeCell } from './cells';
export type { FilterField, ListViewProps } from './ListView';
export { ListView } from './ListView';
export { useIsMobile } from './useIsMobile';
export type { ListController, ListOptions, ListValues, PagedData, SortOrder } from './useList';
export { idValue, pageSizes, rangeValue, sortParams, useList } from './useList';
