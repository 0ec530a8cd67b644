// Shopify's published Admin GraphQL schema (API version 2026-07), as test data: the introspection
// result that the npm package @shopify/dev-mcp@1.16.0 ships (dist/data/admin_2026-07.json.gz),
// copied as it is to fixtures/. Refresh with scripts/shopify-admin-schema.sh. Queries we send and
// answers the simulator gives are checked against it; nothing reads it at run time.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { buildClientSchema, parse, validate, type GraphQLSchema, type IntrospectionQuery } from 'graphql';

export const ADMIN_SCHEMA_VERSION = '2026-07';
const FILE = path.resolve(import.meta.dirname, `fixtures/shopify-admin-${ADMIN_SCHEMA_VERSION}.json.gz`);

let schema: GraphQLSchema | undefined;

/** The Admin API schema, built once per test file. */
export function adminSchema(): GraphQLSchema {
  if (!schema) {
    const introspection = JSON.parse(zlib.gunzipSync(fs.readFileSync(FILE)).toString('utf8')) as { data: IntrospectionQuery };
    schema = buildClientSchema(introspection.data);
  }
  return schema;
}

/** What Shopify would refuse in a query or mutation document: empty when it is valid. */
export function adminSchemaProblems(document: string): string[] {
  return validate(adminSchema(), parse(document)).map((error) => error.message);
}
