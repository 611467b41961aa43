export { crudEndpoints, defineResource } from './crud.define.ts';
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
export { FormField } from './FormField.tsx';
export { ResourceDetail } from './ResourceDetail.tsx';
export { ResourceForm } from './ResourceForm.tsx';
export { ResourceTable, type TableContext } from './ResourceTable.tsx';
