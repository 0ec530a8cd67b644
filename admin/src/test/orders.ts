import type { OrderData, OrderRecord, ProviderEventRecord, ProviderSendRecord } from '../../../common/api/orders';
// Fixtures for the orders and fulfilment screens' tests.

/** The fields every general-data record carries that these tests do not look at. */
export const RECORD_DEFAULTS = {
  userId: null,
  publicPermission: { create: false, read: false, update: false, delete: false },
  updatedAt: '2025-03-07T10:05:00',
};

export function order(overrides: Partial<OrderRecord> = {}, data: Partial<OrderData> = {}): OrderRecord {
  const id = data.id ?? '5500000001';
  return {
    id: 1,
    type: 'shopify-order-log',
    field1: String(id),
    field2: data.name ?? '#1001',
    name: 'order-log',
    status: data.status ?? 'received',
    siteId: 1,
    ...RECORD_DEFAULTS,
    createdAt: '2025-03-07T10:05:00',
    data: {
      id,
      created_at: '2025-03-07T10:05:00',
      status: 'received',
      order_number: 1001,
      name: '#1001',
      email: 'robin@example.com',
      customer: { first_name: 'Robin', last_name: 'Hood' },
      line_items: [{ id: '901', name: 'Robin card', product_id: '77', sku: 'CARD-ROBIN', quantity: 1 }],
      shipping_address: { name: 'Robin Hood', address1: '1 Forest Lane', city: 'Nottingham', zip: 'NG1 1AA', country_code: 'GB' },
      preGeneratedHPItems: [],
      ...data,
    },
    ...overrides,
  };
}

export function providerEvent(overrides: Partial<ProviderEventRecord> = {}, data: ProviderEventRecord['data'] = {}): ProviderEventRecord {
  return {
    id: 31,
    type: 'hp-log',
    field1: '5500000001',
    field2: 'hp-1',
    name: 'shipped',
    status: 'shipped',
    siteId: 1,
    ...RECORD_DEFAULTS,
    createdAt: '2025-03-08T09:30:00',
    data: {
      timestamp: '2025-03-08T09:30:00',
      status: 'shipped',
      shopifyOrderId: '5500000001',
      trackingNumber: 'TRK123',
      shippingMethod: 'Royal Mail 1st Class',
      event: 'shipped',
      ...data,
    },
    ...overrides,
  };
}

export function providerSend(overrides: Partial<ProviderSendRecord> = {}, data: ProviderSendRecord['data'] = {}): ProviderSendRecord {
  return {
    id: 41,
    type: 'shopify-hp-log',
    field1: '5500000001',
    field2: '',
    name: 'send',
    status: 'sent',
    siteId: 1,
    ...RECORD_DEFAULTS,
    createdAt: '2025-03-07T10:06:00',
    data: {
      sentData: { orderData: { sourceOrderId: '5500000001' } },
      results: { order: { _id: 'hp-1' } },
      attempts: 1,
      ...data,
    },
    ...overrides,
  };
}
