// The published Admin schema is usable as test data: a query Shopify accepts passes, a misspelt
// field or a removed argument is named.
import { describe, expect, it } from 'vitest';
import { adminSchemaProblems } from './shopifyAdminSchema';

describe("Shopify's published Admin GraphQL schema (test data)", () => {
  it('accepts a valid query and names what it would refuse', () => {
    expect(adminSchemaProblems('query { shop { name myshopifyDomain } }')).toEqual([]);
    expect(adminSchemaProblems('query { shop { nam } }').join(' ')).toMatch(/Cannot query field "nam" on type "Shop"/);
    expect(adminSchemaProblems('query { orders(first: 5, sortBy: NAME) { nodes { id } } }').join(' ')).toMatch(/sortBy/);
  });

  it('holds the fulfilment and subscription operations the store integration uses', () => {
    const problems = adminSchemaProblems(`
      mutation ($fulfillment: FulfillmentInput!) {
        fulfillmentCreate(fulfillment: $fulfillment) { fulfillment { id status } userErrors { field message } }
      }`);
    expect(problems).toEqual([]);
  });
});
