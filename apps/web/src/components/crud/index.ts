export { bodyOfFields, defineResource } from './crud.define.ts';
export { enumOption, formatDateTime, optionLabel, renderCell, StatusBadge, DATETIME_FORMAT } from './crud.cells.tsx';
export { filtersToBody, toMillis } from './crud.filters.ts';
export {
  useDeleteResource, useExportResource, useImportResource, useOptionSource, useResource, useResourceList, useResourceOne,
  useResourcePage, useResourceTree, useSaveResource,
} from './crud.hooks.ts';
export { resourceKeys, type ResourceKeys } from './crud.keys.ts';
export { resourceApi } from './crud.api.ts';
export type * from './crud.types.ts';
export { issueText, markIssue, validateWith, fieldRule, type FieldErrors } from './crud.validation.ts';
// The form and the detail are not re-exported here: the list loads them when first opened, and a
// static path through this index would bring them (date pickers, cascaders...) to every list page.
// Import them from their files.
export { ResourceTable, type TableContext } from './ResourceTable.tsx';
