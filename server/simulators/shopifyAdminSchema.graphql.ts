// The part of Shopify's Admin GraphQL schema (2026-07) the simulator serves: types, fields,
// arguments and input fields spelt exactly as Shopify publishes them (a test proves each one
// exists in the published schema with the same type). Enums list only the values the simulator
// can produce or accepts; everything else of the real schema is simply absent here.
export const ADMIN_SDL = /* GraphQL */ `
scalar DateTime
scalar URL
scalar UnsignedInt64
scalar Decimal

interface Node {
  id: ID!
}

interface LegacyInteroperability {
  legacyResourceId: UnsignedInt64!
}

interface DisplayableError {
  field: [String!]
  message: String!
}

type PageInfo {
  endCursor: String
  hasNextPage: Boolean!
  hasPreviousPage: Boolean!
  startCursor: String
}

enum CurrencyCode { AUD CAD EUR GBP USD }
enum CountryCode { AU CA DE ES FR GB IE IT NL US }

type MoneyV2 {
  amount: Decimal!
  currencyCode: CurrencyCode!
}

type MoneyBag {
  presentmentMoney: MoneyV2!
  shopMoney: MoneyV2!
}

type Attribute {
  key: String!
  value: String
}

type Shop implements Node {
  id: ID!
  name: String!
  email: String!
  contactEmail: String!
  myshopifyDomain: String!
  url: URL!
  currencyCode: CurrencyCode!
  ianaTimezone: String!
}

type CustomerEmailAddress {
  emailAddress: String!
  marketingState: CustomerEmailAddressMarketingState!
  marketingOptInLevel: CustomerMarketingOptInLevel
  marketingUpdatedAt: DateTime
}

enum CustomerEmailAddressMarketingState {
  INVALID
  NOT_SUBSCRIBED
  PENDING
  SUBSCRIBED
  UNSUBSCRIBED
}

enum CustomerMarketingOptInLevel {
  CONFIRMED_OPT_IN
  SINGLE_OPT_IN
  UNKNOWN
}

type Customer implements Node & LegacyInteroperability {
  id: ID!
  legacyResourceId: UnsignedInt64!
  firstName: String
  lastName: String
  displayName: String!
  defaultEmailAddress: CustomerEmailAddress
  email: String @deprecated(reason: "Use \`defaultEmailAddress.emailAddress\` instead.")
  createdAt: DateTime!
  updatedAt: DateTime!
}

type MailingAddress implements Node {
  id: ID!
  name: String
  firstName: String
  lastName: String
  company: String
  address1: String
  address2: String
  city: String
  zip: String
  province: String
  provinceCode: String
  country: String
  countryCodeV2: CountryCode
  phone: String
}

type ShippingLine {
  id: ID
  title: String!
  code: String
  source: String
  carrierIdentifier: String
  phone: String
}

type ShippingLineEdge {
  cursor: String!
  node: ShippingLine!
}

type ShippingLineConnection {
  edges: [ShippingLineEdge!]!
  nodes: [ShippingLine!]!
  pageInfo: PageInfo!
}

type Product implements Node & LegacyInteroperability {
  id: ID!
  legacyResourceId: UnsignedInt64!
  title: String!
  vendor: String!
  createdAt: DateTime!
  updatedAt: DateTime!
}

type ProductVariant implements Node & LegacyInteroperability {
  id: ID!
  legacyResourceId: UnsignedInt64!
  sku: String
  title: String!
  displayName: String!
  product: Product!
  createdAt: DateTime!
  updatedAt: DateTime!
}

type LineItem implements Node {
  id: ID!
  name: String!
  title: String!
  sku: String
  vendor: String
  quantity: Int!
  currentQuantity: Int!
  unfulfilledQuantity: Int!
  nonFulfillableQuantity: Int!
  customAttributes: [Attribute!]!
  originalUnitPriceSet: MoneyBag!
  variant: ProductVariant
  product: Product
}

type LineItemEdge {
  cursor: String!
  node: LineItem!
}

type LineItemConnection {
  edges: [LineItemEdge!]!
  nodes: [LineItem!]!
  pageInfo: PageInfo!
}

enum OrderCancelReason { CUSTOMER DECLINED FRAUD INVENTORY OTHER STAFF }
enum OrderDisplayFinancialStatus { AUTHORIZED EXPIRED PAID PARTIALLY_PAID PARTIALLY_REFUNDED PENDING REFUNDED VOIDED }
enum OrderDisplayFulfillmentStatus { FULFILLED IN_PROGRESS ON_HOLD OPEN PARTIALLY_FULFILLED PENDING_FULFILLMENT REQUEST_DECLINED RESTOCKED SCHEDULED UNFULFILLED }
enum OrderSortKeys { CREATED_AT ID ORDER_NUMBER PROCESSED_AT UPDATED_AT }

type Order implements Node & LegacyInteroperability {
  id: ID!
  legacyResourceId: UnsignedInt64!
  name: String!
  number: Int!
  createdAt: DateTime!
  updatedAt: DateTime!
  processedAt: DateTime!
  customerAcceptsMarketing: Boolean!
  cancelledAt: DateTime
  cancelReason: OrderCancelReason
  closed: Boolean!
  confirmed: Boolean!
  test: Boolean!
  fulfillable: Boolean!
  fullyPaid: Boolean!
  unpaid: Boolean!
  displayFinancialStatus: OrderDisplayFinancialStatus
  displayFulfillmentStatus: OrderDisplayFulfillmentStatus!
  email: String
  phone: String
  note: String
  tags: [String!]!
  sourceName: String
  currencyCode: CurrencyCode!
  totalPriceSet: MoneyBag!
  currentTotalPriceSet: MoneyBag!
  subtotalLineItemsQuantity: Int!
  currentSubtotalLineItemsQuantity: Int!
  customAttributes: [Attribute!]!
  customer: Customer
  shippingAddress: MailingAddress
  billingAddress: MailingAddress
  shippingLine: ShippingLine
  shippingLines(after: String, before: String, first: Int, includeRemovals: Boolean = false, last: Int, reverse: Boolean = false): ShippingLineConnection!
  lineItems(after: String, before: String, first: Int, last: Int, reverse: Boolean = false): LineItemConnection!
  fulfillmentOrders(after: String, before: String, displayable: Boolean = false, first: Int, last: Int, query: String, reverse: Boolean = false): FulfillmentOrderConnection!
  fulfillments(first: Int, query: String): [Fulfillment!]!
}

type OrderEdge {
  cursor: String!
  node: Order!
}

type OrderConnection {
  edges: [OrderEdge!]!
  nodes: [Order!]!
  pageInfo: PageInfo!
}

enum FulfillmentOrderStatus { CANCELLED CLOSED INCOMPLETE IN_PROGRESS ON_HOLD OPEN SCHEDULED }
enum FulfillmentOrderRequestStatus { ACCEPTED CANCELLATION_ACCEPTED CANCELLATION_REJECTED CANCELLATION_REQUESTED CLOSED REJECTED SUBMITTED UNSUBMITTED }

type FulfillmentOrderLineItem implements Node {
  id: ID!
  sku: String
  remainingQuantity: Int!
  totalQuantity: Int!
  lineItem: LineItem!
  variant: ProductVariant
}

type FulfillmentOrderLineItemEdge {
  cursor: String!
  node: FulfillmentOrderLineItem!
}

type FulfillmentOrderLineItemConnection {
  edges: [FulfillmentOrderLineItemEdge!]!
  nodes: [FulfillmentOrderLineItem!]!
  pageInfo: PageInfo!
}

type FulfillmentOrder implements Node {
  id: ID!
  orderId: ID!
  orderName: String!
  order: Order!
  status: FulfillmentOrderStatus!
  requestStatus: FulfillmentOrderRequestStatus!
  createdAt: DateTime!
  updatedAt: DateTime!
  fulfillAt: DateTime
  fulfillmentHolds: [FulfillmentHold!]!
  lineItems(after: String, before: String, first: Int, last: Int, reverse: Boolean = false): FulfillmentOrderLineItemConnection!
}

enum FulfillmentHoldReason { AWAITING_PAYMENT AWAITING_RETURN_ITEMS HIGH_RISK_OF_FRAUD INCORRECT_ADDRESS INVENTORY_OUT_OF_STOCK ONLINE_STORE_POST_PURCHASE_CROSS_SELL OTHER UNKNOWN_DELIVERY_DATE }

type FulfillmentHold implements Node {
  id: ID!
  displayReason: String!
  handle: String
  heldByRequestingApp: Boolean!
  reason: FulfillmentHoldReason!
  reasonNotes: String
}

input FulfillmentOrderHoldInput {
  externalId: String
  fulfillmentOrderLineItems: [FulfillmentOrderLineItemInput!] = []
  handle: String = ""
  notifyMerchant: Boolean = false
  reason: FulfillmentHoldReason!
  reasonNotes: String
}

enum FulfillmentOrderHoldUserErrorCode { DUPLICATE_FULFILLMENT_HOLD_HANDLE FULFILLMENT_ORDER_HOLD_LIMIT_REACHED FULFILLMENT_ORDER_NOT_FOUND FULFILLMENT_ORDER_NOT_SPLITTABLE TAKEN }

type FulfillmentOrderHoldUserError implements DisplayableError {
  code: FulfillmentOrderHoldUserErrorCode
  field: [String!]
  message: String!
}

type FulfillmentOrderHoldPayload {
  fulfillmentHold: FulfillmentHold
  fulfillmentOrder: FulfillmentOrder
  remainingFulfillmentOrder: FulfillmentOrder
  userErrors: [FulfillmentOrderHoldUserError!]!
}

enum FulfillmentOrderReleaseHoldUserErrorCode { FULFILLMENT_ORDER_NOT_FOUND INVALID_ACCESS }

type FulfillmentOrderReleaseHoldUserError implements DisplayableError {
  code: FulfillmentOrderReleaseHoldUserErrorCode
  field: [String!]
  message: String!
}

type FulfillmentOrderReleaseHoldPayload {
  fulfillmentOrder: FulfillmentOrder
  userErrors: [FulfillmentOrderReleaseHoldUserError!]!
}

type FulfillmentOrderEdge {
  cursor: String!
  node: FulfillmentOrder!
}

type FulfillmentOrderConnection {
  edges: [FulfillmentOrderEdge!]!
  nodes: [FulfillmentOrder!]!
  pageInfo: PageInfo!
}

enum FulfillmentStatus { CANCELLED ERROR FAILURE SUCCESS }

type FulfillmentTrackingInfo {
  company: String
  number: String
  url: URL
}

type FulfillmentLineItem implements Node {
  id: ID!
  quantity: Int
  lineItem: LineItem!
}

type FulfillmentLineItemEdge {
  cursor: String!
  node: FulfillmentLineItem!
}

type FulfillmentLineItemConnection {
  edges: [FulfillmentLineItemEdge!]!
  nodes: [FulfillmentLineItem!]!
  pageInfo: PageInfo!
}

type Fulfillment implements Node & LegacyInteroperability {
  id: ID!
  legacyResourceId: UnsignedInt64!
  name: String!
  status: FulfillmentStatus!
  createdAt: DateTime!
  updatedAt: DateTime!
  totalQuantity: Int!
  order: Order!
  trackingInfo(first: Int): [FulfillmentTrackingInfo!]!
  fulfillmentLineItems(after: String, before: String, first: Int, last: Int, reverse: Boolean = false): FulfillmentLineItemConnection!
  fulfillmentOrders(after: String, before: String, first: Int, last: Int, reverse: Boolean = false): FulfillmentOrderConnection!
}

type UserError implements DisplayableError {
  field: [String!]
  message: String!
}

input FulfillmentOrderLineItemInput {
  id: ID!
  quantity: Int!
}

input FulfillmentOrderLineItemsInput {
  fulfillmentOrderId: ID!
  fulfillmentOrderLineItems: [FulfillmentOrderLineItemInput!]
}

input FulfillmentTrackingInput {
  company: String
  number: String
  numbers: [String!]
  url: URL
  urls: [URL!]
}

input FulfillmentInput {
  lineItemsByFulfillmentOrder: [FulfillmentOrderLineItemsInput!]!
  notifyCustomer: Boolean = false
  trackingInfo: FulfillmentTrackingInput
}

type FulfillmentCreatePayload {
  fulfillment: Fulfillment
  userErrors: [UserError!]!
}

enum WebhookSubscriptionTopic {
  APP_UNINSTALLED
  FULFILLMENTS_CREATE
  FULFILLMENTS_UPDATE
  ORDERS_CANCELLED
  ORDERS_CREATE
  ORDERS_DELETE
  ORDERS_EDITED
  ORDERS_FULFILLED
  ORDERS_PAID
  ORDERS_PARTIALLY_FULFILLED
  ORDERS_UPDATED
}
enum WebhookSubscriptionFormat { JSON XML }
enum WebhookSubscriptionSortKeys { CREATED_AT ID }

type ApiVersion {
  displayName: String!
  handle: String!
  supported: Boolean!
}

type WebhookHttpEndpoint {
  callbackUrl: URL!
}

union WebhookSubscriptionEndpoint = WebhookHttpEndpoint

type WebhookSubscription implements Node & LegacyInteroperability {
  id: ID!
  legacyResourceId: UnsignedInt64!
  topic: WebhookSubscriptionTopic!
  uri: String!
  callbackUrl: URL! @deprecated(reason: "Use \`uri\` instead.")
  endpoint: WebhookSubscriptionEndpoint! @deprecated(reason: "Use \`uri\` instead.")
  format: WebhookSubscriptionFormat!
  filter: String
  includeFields: [String!]!
  name: String
  apiVersion: ApiVersion!
  createdAt: DateTime!
  updatedAt: DateTime!
}

type WebhookSubscriptionEdge {
  cursor: String!
  node: WebhookSubscription!
}

type WebhookSubscriptionConnection {
  edges: [WebhookSubscriptionEdge!]!
  nodes: [WebhookSubscription!]!
  pageInfo: PageInfo!
}

input WebhookSubscriptionInput {
  uri: String
  callbackUrl: URL @deprecated(reason: "Use \`uri\` instead.")
  format: WebhookSubscriptionFormat
  filter: String
  includeFields: [String!]
  name: String
}

type WebhookSubscriptionCreatePayload {
  userErrors: [UserError!]!
  webhookSubscription: WebhookSubscription
}

type WebhookSubscriptionUpdatePayload {
  userErrors: [UserError!]!
  webhookSubscription: WebhookSubscription
}

type WebhookSubscriptionDeletePayload {
  deletedWebhookSubscriptionId: ID
  userErrors: [UserError!]!
}

type AccessScope {
  description: String!
  handle: String!
}

type AppInstallation implements Node {
  id: ID!
  accessScopes: [AccessScope!]!
}

type QueryRoot {
  currentAppInstallation: AppInstallation!
  shop: Shop!
  order(id: ID!): Order
  orders(after: String, before: String, first: Int, last: Int, query: String, reverse: Boolean = false, sortKey: OrderSortKeys = PROCESSED_AT): OrderConnection!
  webhookSubscriptions(after: String, before: String, callbackUrl: URL, first: Int, format: WebhookSubscriptionFormat, last: Int, query: String, reverse: Boolean = false, sortKey: WebhookSubscriptionSortKeys = CREATED_AT, topics: [WebhookSubscriptionTopic!], uri: String): WebhookSubscriptionConnection!
}

type Mutation {
  fulfillmentCreate(fulfillment: FulfillmentInput!, message: String): FulfillmentCreatePayload
  fulfillmentOrderHold(fulfillmentHold: FulfillmentOrderHoldInput!, id: ID!): FulfillmentOrderHoldPayload
  fulfillmentOrderReleaseHold(externalId: String, holdIds: [ID!], id: ID!): FulfillmentOrderReleaseHoldPayload
  webhookSubscriptionCreate(topic: WebhookSubscriptionTopic!, webhookSubscription: WebhookSubscriptionInput!): WebhookSubscriptionCreatePayload
  webhookSubscriptionUpdate(id: ID!, webhookSubscription: WebhookSubscriptionInput!): WebhookSubscriptionUpdatePayload
  webhookSubscriptionDelete(id: ID!): WebhookSubscriptionDeletePayload
}

schema {
  query: QueryRoot
  mutation: Mutation
}
`;
