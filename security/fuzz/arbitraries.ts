// What the fuzzer sends: hostile path parameters, query strings and bodies (fast-check arbitraries).
import fc from 'fast-check';

/** Strings that have broken servers before: numbers out of range, traversal, NUL, SQL, prototypes, huge. */
export const HOSTILE_STRINGS: readonly string[] = [
  '0',
  '-1',
  '-0',
  '1.5',
  '1e308',
  '-1e308',
  'NaN',
  'Infinity',
  '0x10',
  '00001',
  ' 1 ',
  '9007199254740993',
  '99999999999999999999999999999999',
  '18446744073709551616',
  '-9223372036854775809',
  '../',
  '../../../../etc/passwd',
  '..\\..\\..\\windows\\win.ini',
  '%2e%2e%2f%2e%2e%2f',
  '....//....//',
  '/files/../jwt-secret',
  '%00',
  'a\u0000b',
  '\u0000',
  "1' OR '1'='1",
  '1; DROP TABLE users; --',
  "' UNION SELECT password_hash FROM users --",
  '"); DELETE FROM sites; --',
  '1) OR 1=1 --',
  '%',
  '_',
  '\\',
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  '{"$gt":""}',
  '[]',
  '{}',
  'null',
  'undefined',
  'true',
  '<script>alert(1)</script>',
  'a\r\nSet-Cookie: pwned=1',
  '${7*7}{{7*7}}%s%n%x',
  'ü',
  '𝕏𝔞𝔪𝔭𝔩𝔢',
  '\u202egnp.exe',
  '\u200b',
  '\ud800',
  'ﷺ'.repeat(50),
  '🙂'.repeat(200),
  'a'.repeat(10_000),
  '9'.repeat(4_000),
  'x/'.repeat(500),
];

/** Path-segment spellings that only make sense raw (not percent-encoded again). */
const RAW_SEGMENTS = ['..', '.', '%2e%2e', '..%2f..%2fetc%2fpasswd', '%00', '%', '%zz', '%c0%ae%c0%ae', '%ff', '%e2%80%ae', '%5c..%5c', ';', '%20', '~'];

/** A hostile or random string. */
export const hostileString: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...HOSTILE_STRINGS) },
  { weight: 2, arbitrary: fc.string({ maxLength: 40, unit: 'grapheme' }) },
  { weight: 1, arbitrary: fc.string({ maxLength: 40, unit: 'binary' }) },
  { weight: 1, arbitrary: fc.string({ minLength: 1, maxLength: 2_000 }) },
  { weight: 1, arbitrary: fc.bigInt({ min: -(2n ** 80n), max: 2n ** 80n }).map(String) },
  { weight: 1, arbitrary: fc.double().map(String) },
);

/** Percent-encoding that never throws (lone surrogates are sent as U+FFFD, like a browser would). */
export function pct(s: string): string {
  let out = '';
  for (const b of Buffer.from(s, 'utf8')) out += /[A-Za-z0-9\-_.!~*'()]/.test(String.fromCharCode(b)) ? String.fromCharCode(b) : `%${b.toString(16).toUpperCase().padStart(2, '0')}`;
  return out;
}

/** A path parameter value: hostile, or an id/name that exists (possibly another site's), already encoded for the URL. */
export function pathValue(existing: { ids: number[]; names: string[] }, wildcard: boolean): fc.Arbitrary<string> {
  const enc = (s: string) => (wildcard ? s.split('/').map(pct).join('/') : pct(s));
  return fc.oneof(
    { weight: 3, arbitrary: hostileString.map(enc) },
    { weight: 2, arbitrary: fc.constantFrom(...existing.ids).map(String) },
    { weight: 1, arbitrary: fc.constantFrom(...existing.names).map(pct) },
    { weight: 1, arbitrary: fc.constantFrom(...RAW_SEGMENTS) },
    { weight: 1, arbitrary: fc.integer({ min: 1, max: 60 }).map(String) },
    ...(wildcard ? [{ weight: 1, arbitrary: fc.array(fc.constantFrom(...RAW_SEGMENTS, 'a', 'x.png', 'files'), { minLength: 1, maxLength: 6 }).map((a) => a.join('/')) }] : []),
  );
}

/** Query keys the routes read, and a few they don't. */
const QUERY_KEYS = [
  'sort',
  'range',
  'filter',
  'q',
  'page',
  'pageSize',
  'limit',
  'offset',
  'status',
  'excludeStatus',
  'allClients',
  'userId',
  'siteId',
  'site',
  'id',
  'name',
  'type',
  'date',
  'day',
  'from',
  'to',
  'cursor',
  'perPage',
  'webhookKey',
  'ct',
  'expires',
  'u',
  's',
  'sig',
  'isPrinted',
  'printed',
  '__proto__',
  'constructor',
  'a[b][c]',
  'filter[q]',
  'sort[]',
];

/** JSON-ish garbage for simple-rest's sort/range/filter. */
const jsonish: fc.Arbitrary<string> = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)),
  fc.constantFrom(
    '["name","ASC"]',
    '["id","DESC"]',
    '["__proto__","ASC"]',
    '["name","SIDEWAYS"]',
    '["name"]',
    '[0,24]',
    '[24,0]',
    '[-5,-1]',
    '[0,1e308]',
    '[0,99999999999]',
    '[1.5,2.5]',
    '["0","24"]',
    '{"q":"x"}',
    '{"id":[1,2,3]}',
    '{"id":"1 OR 1=1"}',
    '{"id":[null,{},[]]}',
    '{"siteId":-1}',
    '{"__proto__":{"admin":true}}',
    '{"q":{"$ne":null}}',
    '{"status":["a","b"]}',
    '{"q":"%_\\\\"}',
    '[',
    '{"a":',
    'null',
    '"string"',
    '1e999',
  ),
);

const queryValue = fc.oneof({ weight: 3, arbitrary: hostileString }, { weight: 2, arbitrary: jsonish });

/** A query string (without '?'): repeated keys become arrays, `a[b][c]` keys, JSON garbage. */
export const queryString: fc.Arbitrary<string> = fc
  .array(fc.tuple(fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...QUERY_KEYS) }, { weight: 1, arbitrary: hostileString }), queryValue), { maxLength: 6 })
  .chain((pairs) =>
    // Sometimes repeat a key (→ an array in req.query).
    fc.boolean().map((repeat) => (repeat && pairs.length ? [...pairs, [pairs[0][0], pairs[0][1] + '2'] as [string, string]] : pairs)),
  )
  .map((pairs) => pairs.map(([k, v]) => `${pct(k)}=${pct(v)}`).join('&'));

/** Field names the schemas know (server/src/modules/*\/schema.ts), for wrong-typed values of known fields. */
export const KNOWN_FIELDS = [
  'id', 'ids', 'url', 'urls', 'name', 'sku', 'email', 'password', 'confirmPassword', 'role', 'siteId', 'site', 'data', 'type', 'orderId',
  'lineItemId', 'artworkUrls', 'quantity', 'serverSidePath', 'contentType', 'settings', 'slug', 'theme', 'logo', 'note', 'isPrinted',
  'isPDFDownloaded', 'isRePrinted', 'reprintReason', 'reprintResponsible', 'reprintNote', 'readyForPrint', 'flags', 'bleedMm', 'document', 'page', 'pageSize', 'values', 'date', 'day',
  'constituentId', 'hour', 'enabled', 'fileName', 'file', 'firstName', 'lastName', 'publicPermission', 'productName', 'productId',
  'designId', 'previewUrl', 'image', 'imageUrl', 'images', 'productType', 'isCustomizable', 'hpSKU', 'hpAdditionData', 'storeSku',
  'storeProductId', 'shopDomain', 'webhookSecret', 'previousSecret', 'env', 'key', 'value', 'json', 'items', 'orderData', 'shipTo',
  'shipment', 'status', 'trackingNumber', 'trackingUrl', 'carrier', 'sourceOrderId', 'sourceItemId', 'shopifyOrderId', 'clientId',
  'userId', 'createdByUserId', 'allClients', 'force', 'event', 'timestamp', 'targetDate', 'shippedDate', 'pdfUrl', 'productPdf',
  'pregeneratedPDF', 'attributes', 'code', 'kind', 'path', 'q', 'excludeStatus', 'stockItems', 'product', 'autoSendToHP', 'mainColor',
  'text', 'subject', 'to', 'method', 'body', 'headers', 'endpoint', 'line_items', 'properties', '__proto__', 'constructor',
];

const wrongValue: fc.Arbitrary<unknown> = fc.oneof(
  hostileString,
  fc.constantFrom(null, true, false, 0, -1, 1.5, 1e308, -1e308, Number.MAX_SAFE_INTEGER + 2, [], {}, [null], [[[]]], { $gt: '' }, JSON.parse('{"__proto__":{"admin":true}}') as unknown, ['a', 1, null]),
  fc.integer(),
  fc.double(),
  fc.array(hostileString, { maxLength: 5 }),
  fc.dictionary(fc.constantFrom(...KNOWN_FIELDS), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 }),
);

export type BodyCase =
  | { kind: 'none' }
  | { kind: 'json'; value: unknown }
  | { kind: 'raw'; contentType: string; text: string; note: string };

const deepNesting = fc.tuple(fc.integer({ min: 1_000, max: 200_000 }), fc.constantFrom('[', '{"a":', '{"data":')).map(([wanted, open]): BodyCase => {
  const depth = Math.min(wanted, Math.floor(900_000 / (open.length + 1)));
  const close = open === '[' ? ']' : '}';
  return { kind: 'raw', contentType: 'application/json', text: open.repeat(depth) + '1' + close.repeat(depth), note: `nesting ${depth} deep (${open})` };
});

const hugeArray = fc.tuple(fc.integer({ min: 10_000, max: 150_000 }), fc.constantFrom(...KNOWN_FIELDS.slice(0, 30)), fc.constantFrom('1', '"x"', 'null', '{}', '"/files/a.png"')).map(
  ([wanted, field, item]): BodyCase => {
    // Within the 1 MB body limit: the route itself must cope with it.
    const n = Math.min(wanted, Math.floor(900_000 / (item.length + 1)));
    return { kind: 'raw', contentType: 'application/json', text: `{"${field}":[${new Array(n).fill(item).join(',')}]}`, note: `${field}: ${n} items` };
  },
);

const wideObject = fc.integer({ min: 5_000, max: 40_000 }).map((n): BodyCase => {
  const keys = Array.from({ length: n }, (_, i) => `"k${i}":${i}`);
  return { kind: 'raw', contentType: 'application/json', text: `{${keys.join(',')}}`, note: `${n} keys` };
});

const invalidJson = fc.oneof(
  fc.constantFrom('{', '{"a":}', '[1,2', '{"a":1,}', "{'a':1}", 'NaN', '{"a":1}{"b":2}', '\u0000', '\ufeff{"a":1}', '{"a":"\\u00"}', ''),
  fc.string({ maxLength: 200 }),
).map((text): BodyCase => ({ kind: 'raw', contentType: 'application/json', text, note: 'invalid JSON' }));

const otherContentType = fc
  .tuple(
    fc.constantFrom(
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=xyz',
      'application/xml',
      'application/octet-stream',
      'image/png',
      'application/json; charset=utf-16',
      'application/json; charset=latin1',
      'application/merge-patch+json',
      'text/html',
      'application/json, text/plain',
    ),
    fc.oneof(fc.string({ maxLength: 300 }), fc.constantFrom('a=1&b[c]=2&__proto__[x]=1', '--xyz\r\nContent-Disposition: form-data; name="file"\r\n\r\nabc\r\n--xyz--', '<?xml version="1.0"?><!DOCTYPE a [<!ENTITY x SYSTEM "file:///etc/passwd">]><a>&x;</a>', '{"url":"/files/x.png"}')),
  )
  .map(([contentType, text]): BodyCase => ({ kind: 'raw', contentType, text, note: contentType }));

/** Objects whose keys the schemas know, holding values of the wrong type. */
const knownFieldsWrong = fc.dictionary(fc.constantFrom(...KNOWN_FIELDS), wrongValue, { minKeys: 1, maxKeys: 8 });

/** A body: random JSON of any shape, known fields with wrong types, deep nesting, huge arrays, other content types, invalid JSON. */
export const bodyCase: fc.Arbitrary<BodyCase> = fc.oneof(
  { weight: 1, arbitrary: fc.constant<BodyCase>({ kind: 'none' }) },
  { weight: 3, arbitrary: fc.jsonValue({ maxDepth: 4 }).map((value): BodyCase => ({ kind: 'json', value })) },
  { weight: 4, arbitrary: knownFieldsWrong.map((value): BodyCase => ({ kind: 'json', value })) },
  { weight: 1, arbitrary: fc.array(knownFieldsWrong, { maxLength: 3 }).map((value): BodyCase => ({ kind: 'json', value })) },
  { weight: 1, arbitrary: deepNesting },
  { weight: 1, arbitrary: hugeArray },
  { weight: 1, arbitrary: wideObject },
  { weight: 1, arbitrary: invalidJson },
  { weight: 1, arbitrary: otherContentType },
);

export type ActorName = 'anonymous' | 'userA' | 'adminA' | 'userB';
export const actorArb: fc.Arbitrary<ActorName> = fc.constantFrom<ActorName>('anonymous', 'userA', 'adminA', 'userB');
