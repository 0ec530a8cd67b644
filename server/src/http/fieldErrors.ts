// The one owner of "this input is wrong" as a person reads it: a field key gets its label
// ("firstName" → "First name"), a validator's failure a sentence ("First name is required."),
// and the API keeps the key apart, in `field` and `details: [{field, message}]`.
import type { z } from 'zod';
import type { FieldProblem } from '../../../common/api/envelope';
import { HttpError } from './errors';

export type { FieldProblem };

/** Labels of keys whose plain reading is not what a screen calls them. */
const LABELS: Record<string, string> = {
  firstName: 'First name',
  lastName: 'Last name',
  email: 'Email',
  password: 'Password',
  role: 'Role',
  siteId: 'Site',
  site: 'Site',
  slug: 'Slug',
  name: 'Name',
  contentType: 'File type',
  serverSidePath: 'File name',
  url: 'URL',
  urls: 'Image URLs',
  imageUrl: 'Image URL',
  artworkUrl: 'Artwork URL',
  previewUrl: 'Preview URL',
  pdfUrl: 'PDF URL',
  productType: 'Product type',
  stock: 'Paper stock',
  productName: 'Product name',
  designId: 'Design',
  clientId: 'Client',
  src: 'Image',
  artworkUrls: 'Artwork URLs',
  json: 'Design JSON',
  isCustomizable: 'Customizable',
  id: 'ID',
  orderId: 'Order ID',
  shopifyOrderId: 'Store order ID',
  lineItemId: 'Line item ID',
  lineId: 'Line item ID',
  storeSku: 'Store SKU',
  storeProductId: 'Store product ID',
  field1: 'Code',
  field2: 'Second code',
  data: 'Data',
  mainColor: 'Theme main colour',
  logo: 'Logo',
  env: 'Environment variables',
  key: 'Key',
  value: 'Value',
  quantity: 'Quantity',
  note: 'Production note',
  page: 'Page',
  pageSize: 'Page size',
  from: 'From',
  to: 'To',
  dpi: 'Resolution (dpi)',
  sendWhen: 'Send when',
  isPrinted: 'Printed',
  readyForPrint: 'Ready for print',
  sort: 'Sort',
  range: 'Range',
  filter: 'Filter',
  q: 'Search',
  // The reprint contract names these fields as the API spells them ("reprintReason is required: one of …").
  reprintReason: 'reprintReason',
  reprintResponsible: 'reprintResponsible',
  reprintNote: 'reprintNote',
};

/** Names of enum values that are codes to a machine (MIME types) but have a common name. */
const VALUE_LABELS: Record<string, string> = {
  'image/png': 'PNG',
  'image/jpeg': 'JPEG',
  'image/webp': 'WebP',
  'image/gif': 'GIF',
  'image/svg+xml': 'SVG',
  'application/pdf': 'PDF',
  'text/csv': 'CSV',
  'application/json': 'JSON',
};

const ACRONYMS = new Set(['id', 'url', 'uri', 'pdf', 'dpi', 'sku', 'hp', 'json', 'csv', 'api', 'crm']);

/** "serverSidePath" → "Server side path"; UPPER_SNAKE names (settings keys) stay as typed. */
function humanize(key: string): string {
  if (/^[A-Z0-9_]+$/.test(key) || /[^A-Za-z0-9_]/.test(key)) return key;
  const words = key
    .replace(/_/g, ' ')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(' ')
    .filter(Boolean)
    .map((w) => (ACRONYMS.has(w.toLowerCase()) ? w.toUpperCase() : w.toLowerCase()));
  const text = words.join(' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

const labelOfKey = (key: string) => LABELS[key] ?? humanize(key);
const lowerFirst = (s: string) => (/^[A-Z][a-z]/.test(s) ? s.charAt(0).toLowerCase() + s.slice(1) : s);

/**
 * The label of a field key as a person reads it: `firstName` → "First name",
 * `filter.role` → "Role filter", `properties.0.value` → "Value of properties item 1".
 */
export function fieldLabel(field: string): string {
  const parts = field.split('.').filter(Boolean);
  if (!parts.length) return 'The request';
  if (parts[0] === 'filter' && parts.length === 2) return `${labelOfKey(parts[1])} filter`;
  const last = parts[parts.length - 1];
  const indexAt = parts.findLastIndex((p) => /^\d+$/.test(p));
  if (indexAt === -1) return labelOfKey(last);
  const item = `${indexAt > 0 ? lowerFirst(labelOfKey(parts[indexAt - 1])) : 'list'} item ${Number(parts[indexAt]) + 1}`;
  if (indexAt === parts.length - 1) return item.charAt(0).toUpperCase() + item.slice(1);
  return `${labelOfKey(last)} of ${item}`;
}

/** How an enum value is named in a sentence. */
export const valueLabel = (value: unknown): string => (typeof value === 'string' ? (VALUE_LABELS[value] ?? value) : String(value));

/** "must be one of PNG, JPEG or PDF". */
export function oneOf(values: readonly unknown[]): string {
  const names = values.map(valueLabel);
  if (names.length <= 2) return `must be ${names.join(' or ')}`;
  return `must be one of ${names.slice(0, -1).join(', ')} or ${names[names.length - 1]}`;
}

/**
 * The sentence about a field. `problem` is either what is wrong in the field's own words
 * ("is required", "must be at most 64 characters": starts lower-case, the label goes first) or
 * a whole sentence (starts upper-case: kept as it is, e.g. the spec's "PDF Empty").
 */
export function fieldSentence(field: string | undefined, problem: string): string {
  const text = problem.trim();
  if (!/^[a-z]/.test(text)) return text;
  const sentence = `${field ? fieldLabel(field) : 'The request'} ${text}`;
  return /[.!?]$/.test(sentence) ? sentence : `${sentence}.`;
}

/** A 400 about one field: the sentence in `error`, the key in `field` and `details`. */
export function fieldError(field: string, problem: string, status = 400): HttpError {
  return fieldErrors([{ field, message: problem }], status);
}

/** A 400 about several fields; `message` of each is a problem as fieldSentence takes it. */
export function fieldErrors(problems: FieldProblem[], status = 400): HttpError {
  const details = problems.map(({ field, message }) => ({ ...(field ? { field } : {}), message: fieldSentence(field, message) }));
  return new HttpError(status, details[0].message, details, undefined, details[0].field);
}

const TYPE_WORDS: Record<string, string> = {
  string: 'text',
  number: 'a number',
  int: 'a whole number',
  bigint: 'a whole number',
  boolean: 'true or false',
  array: 'a list',
  object: 'an object',
  record: 'an object',
  map: 'an object',
  tuple: 'a list',
  date: 'a date',
  null: 'empty',
};

const FORMAT_WORDS: Record<string, string> = {
  email: 'must be an email address',
  url: 'must be a web address (URL)',
  uuid: 'must be a UUID',
  guid: 'must be a UUID',
  datetime: 'must be a date and time (e.g. 2025-03-07T10:00:00Z)',
  date: 'must be a date (YYYY-MM-DD)',
  time: 'must be a time (HH:MM)',
};

type RawIssue = z.core.$ZodRawIssue;

/**
 * zod's wording for a failure without a message of its own, as a problem fieldSentence takes
 * (passed to every parse: a schema's own message still wins).
 */
export function zodProblem(issue: RawIssue): string {
  const i = issue as RawIssue & Record<string, unknown>;
  const n = Number(i.minimum ?? i.maximum);
  const things = i.origin === 'array' || i.origin === 'set' ? 'items' : i.origin === 'string' ? 'characters' : i.origin === 'file' ? 'bytes' : '';
  if ((i.input === undefined || i.input === null) && (issue.code === 'invalid_type' || issue.code === 'invalid_value' || issue.code === 'invalid_union')) return 'is required';
  switch (issue.code) {
    case 'invalid_type':
      return `must be ${TYPE_WORDS[String(i.expected)] ?? String(i.expected)}`;
    case 'too_small':
      if (i.origin === 'string' && n <= 1) return 'is required';
      if (things) return n === 1 ? `needs at least one item` : `must have at least ${n} ${things}`;
      if (i.origin === 'date') return `must not be before ${new Date(n).toISOString().slice(0, 10)}`;
      return i.inclusive === false ? `must be more than ${n}` : `must be at least ${n}`;
    case 'too_big':
      if (i.origin === 'string') return `must be at most ${n} characters`;
      if (things) return `can have at most ${n} ${things}`;
      if (i.origin === 'date') return `must not be after ${new Date(n).toISOString().slice(0, 10)}`;
      return i.inclusive === false ? `must be less than ${n}` : `must be at most ${n}`;
    case 'invalid_format': {
      const format = String(i.format);
      if (format === 'starts_with') return `must start with "${String(i.prefix)}"`;
      if (format === 'ends_with') return `must end with "${String(i.suffix)}"`;
      if (format === 'includes') return `must contain "${String(i.includes)}"`;
      return FORMAT_WORDS[format] ?? 'is not in the expected form';
    }
    case 'invalid_value':
      return oneOf(i.values as unknown[]);
    case 'not_multiple_of':
      return `must be a multiple of ${String(i.divisor)}`;
    case 'unrecognized_keys':
      return 'is not a field this call takes';
    case 'invalid_union':
      return 'is not in a form this call takes';
    case 'invalid_key':
      return 'has a key that is not valid';
    case 'invalid_element':
      return 'has an item that is not valid';
    default:
      return 'is not valid';
  }
}

/** The failures of a zod parse, one problem each (an unknown key is named as the field itself). */
export function zodProblems(error: z.ZodError): FieldProblem[] {
  return error.issues.flatMap((issue) => {
    const path = issue.path.map(String);
    if (issue.code === 'unrecognized_keys') return issue.keys.map((key) => ({ field: [...path, key].join('.'), message: issue.message }));
    return [{ field: path.length ? path.join('.') : undefined, message: issue.message }];
  });
}
