// The lower-cased words of an order the header search matches by prefix (store_orders columns
// name_lower, customer_lower, surname_lower, email_lower): computed here once, for the orders repo
// when it writes an order and for migration 022's backfill, so both write the same keys.

/** How a search key and a typed query are compared: trimmed, spaces collapsed, lower case. */
export function searchKey(text: unknown, max = 255): string | null {
  if (text === null || text === undefined) return null;
  const key = String(text).trim().replace(/\s+/g, ' ').toLowerCase().slice(0, max);
  return key === '' ? null : key;
}

const obj = (v: unknown): Record<string, unknown> => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {});

export interface OrderSearchColumns {
  name_lower: string | null;
  customer_lower: string | null;
  surname_lower: string | null;
  email_lower: string | null;
}

/** An order's search keys from its name and store data (customer, else shipping address; email). */
export function orderSearchColumns(name: string | null | undefined, data: Record<string, unknown>): OrderSearchColumns {
  const customer = obj(data.customer);
  const person = customer.first_name || customer.last_name ? customer : obj(data.shipping_address);
  const surname = searchKey(person.last_name);
  return {
    name_lower: searchKey(name ?? data.name),
    customer_lower: searchKey([person.first_name, person.last_name].filter((v) => v !== null && v !== undefined && v !== '').join(' ')),
    surname_lower: surname,
    email_lower: searchKey(data.email ?? customer.email),
  };
}
