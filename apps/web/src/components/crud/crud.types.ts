import type { FormInstance } from 'antd';
import type { ReactNode } from 'react';
import type { AnyEndpoint } from '@ess/contract/endpoint';
import type { z } from 'zod';

/** The `t` of the language pack: source text (Simplified Chinese) → shown text. */
export type Translate = (source: string, ...args: unknown[]) => string;

/** Colours of status values, as antd Badge statuses. */
export type StatusColor = 'success' | 'processing' | 'error' | 'warning' | 'default';

/** One value of an enumeration (status, type): its label is source text. */
export interface EnumOption {
  value: string | number | boolean;
  label: string;
  color?: StatusColor;
  /** The label is a code shown as it is (HTTP methods), not source text. */
  literal?: boolean;
}

/** An option loaded from the server (names are data, not translated); `children` for trees. */
export interface DataOption {
  value: string | number;
  label: string;
  disabled?: boolean;
  children?: DataOption[];
}

/** Options loaded through TanStack Query (pickers: companies, roles, users, regions). */
export interface OptionSource {
  queryKey: readonly unknown[];
  load: () => Promise<DataOption[]>;
}

export type ColumnType = 'text' | 'number' | 'datetime' | 'enum' | 'boolean' | 'tags' | 'longText' | 'code';

/** A column of the list and a line of the detail. `key` is the record's field. */
export interface ColumnDef<R> {
  key: string;
  /** Source text. */
  title: string;
  type?: ColumnType;
  /** Values and labels of an `enum` column (also `boolean`: true/false). */
  options?: readonly EnumOption[];
  /** Custom cell; wins over `type`. */
  render?: (row: R, t: Translate) => ReactNode;
  width?: number;
  ellipsis?: boolean;
  /**
   * The values may be the product's own words (built-in roles, seeded models and parameters, the
   * demo's devices): shown translated when the language pack knows them (text and tags).
   */
  builtIn?: boolean;
  /** Default true. */
  inTable?: boolean;
  /** Default true. */
  inDetail?: boolean;
  /** Columns the detail spans (of 2). */
  detailSpan?: number;
}

export type FilterType = 'text' | 'enum' | 'number' | 'datetimeRange' | 'dateRange' | 'select' | 'treeSelect';

/** A field of the list's search form; its value goes into the page request body. */
export interface FilterDef {
  key: string;
  /** Source text. */
  title: string;
  type?: FilterType;
  options?: readonly EnumOption[];
  source?: OptionSource;
  /** Body fields of a value; default `{ [key]: value }`, `datetimeRange` → `{ start, end }` in epoch ms,
   * `dateRange` → `{ startDate, endDate }` as YYYY-MM-DD. */
  toBody?: (value: unknown) => Record<string, unknown>;
}

export type FormMode = 'add' | 'edit';

/** What a custom field renders into: the form's value of that field and its change handler. */
export interface CustomFieldProps<F> {
  value: unknown;
  onChange: (value: unknown) => void;
  mode: FormMode;
  form: FormInstance<F>;
  id: string;
}

export type FieldType =
  | 'text' | 'password' | 'textarea' | 'number' | 'enum' | 'radio' | 'switch' | 'datetime' | 'select' | 'multiSelect'
  | 'treeSelect' | 'cascader' | 'custom';

/** A field of the add/edit form. Its value is validated by the contract schema of the form. */
export interface FieldDef<F> {
  name: Extract<keyof F, string>;
  /** Source text; also names the field in error messages ("$1不能为空"). */
  label: string;
  type?: FieldType;
  /** Marks the field required in the form; the contract schema decides what is valid. */
  required?: boolean | ((mode: FormMode) => boolean);
  /** The modes that show the field (default both). */
  modes?: readonly FormMode[];
  /** Shown only while this holds for the current values. */
  visible?: (values: Partial<F>) => boolean;
  /** Fields whose change empties this one (options that depend on them). */
  clearOnChangeOf?: readonly Extract<keyof F, string>[];
  options?: readonly EnumOption[];
  /** Options from the server; a function for options that depend on other fields. */
  source?: OptionSource | ((values: Partial<F>) => OptionSource | null);
  render?: (props: CustomFieldProps<F>) => ReactNode;
  /** Source text shown under the field. */
  help?: string | ((mode: FormMode) => string | undefined);
  placeholder?: string;
  maxLength?: number;
  /** Read-only in edit mode. */
  lockedOnEdit?: boolean;
  /** Takes the full form width in a two-column form. */
  wide?: boolean;
}

export interface FormDef<F, O> {
  /** Modal (default) or drawer. */
  container?: 'modal' | 'drawer';
  width?: number;
  /** Two columns of fields (wide fields span both). */
  columns?: 1 | 2;
  fields: readonly FieldDef<F>[];
  /** Contract schemas the request body must pass before it is sent. */
  schemas: { add?: z.ZodType; edit?: z.ZodType };
  /** Values of a new record. */
  initialValues?: Partial<F>;
  /** Form values of a record loaded with the `one` endpoint. */
  toValues?: (one: O) => Partial<F>;
  /** Request body of the form values; default: the values of the shown fields, plus `id` when editing. */
  toBody?: (values: F, mode: FormMode, id?: number) => Record<string, unknown>;
}

/** The resource's contract endpoints (packages/contract). */
export interface Endpoints {
  /** POST { current, pageSize, ...filters } → { records, total, current, pageSize }. */
  page?: AnyEndpoint;
  /** POST filters → records. */
  list?: AnyEndpoint;
  /** POST {} → records nested by `children`. */
  tree?: AnyEndpoint;
  /** POST { id } → one record (detail and edit form). */
  one?: AnyEndpoint;
  add?: AnyEndpoint;
  edit?: AnyEndpoint;
  /** GET ?id= */
  delete?: AnyEndpoint;
  /** POST filters → xlsx. */
  export?: AnyEndpoint;
  /** POST multipart { file } (xlsx). */
  import?: AnyEndpoint;
}

/**
 * A resource as a declaration (ARCHITECTURE.md §4): the shared list, form and detail render it.
 * R is a record of the list, F the form values, O the record of the `one` endpoint.
 */
export interface ResourceDef<R extends { id: number }, F = Partial<R>, O = R> {
  /** Query-key root, e.g. ['system', 'role']. */
  key: readonly string[];
  /** Source text naming one record ("角色"), used in titles and confirmations. */
  name: string;
  endpoints: Endpoints;
  columns: readonly ColumnDef<R>[];
  /** Columns of the detail only (default: the columns with inDetail). */
  detailColumns?: readonly ColumnDef<O>[];
  filters?: readonly FilterDef[];
  form?: FormDef<F, O>;
  /** Per-row capabilities (built-in records, states that allow no edit). */
  canEdit?: (row: R) => boolean;
  canDelete?: (row: R) => boolean;
  /** Column width of the row actions. */
  actionsWidth?: number;
  /** Name of the exported file when the server names none. */
  exportName?: string;
  /** The xlsx export and import buttons (when their endpoints are set); default true. */
  showExport?: boolean;
  showImport?: boolean;
  /** Detail drawer; default true when `one` is set. */
  detail?: boolean;
  /** Rows per page to begin with. */
  pageSize?: number;
  /** Body fields every page, list and export request carries (a nested resource's parent id). */
  fixedFilters?: Record<string, unknown>;
}
