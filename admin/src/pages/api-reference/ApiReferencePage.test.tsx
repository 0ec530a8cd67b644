import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { jsonResponse, renderInAdmin, signIn, fakeFetch, ADMIN, USER } from '../../test/helpers';
import { router } from '../../test/printProduction';
import ApiReferencePage, { fieldsOf, type OpenApiDocument } from './ApiReferencePage';

// A slice of what GET /api/openapi.json answers (server/test/openapi.test.ts checks the real one).
const DOC: OpenApiDocument = {
  info: { title: 'Presswork API', version: '0.1.0', description: 'The product API answers {success, data, error}.' },
  paths: {
    '/api/scan': {
      post: {
        summary: 'Scan a slug code at the packing bench: the job printed, or a copy packed',
        description: "Any signed-in user; acts on the caller's own site's records.",
        requestBody: { content: { 'application/json': { schema: { type: 'object', properties: { code: { type: 'string' } }, required: ['code'] } } } },
      },
    },
    '/api/batches': {
      get: {
        summary: 'Batches of one state, newest first',
        parameters: [{ name: 'state', in: 'query', schema: { enum: ['open', 'printed', 'cut', 'packed'] } }],
      },
    },
  },
};

describe('API reference (admins)', () => {
  it("lists every route of the server's document with its line, who may call it, and its fields", async () => {
    signIn(ADMIN);
    const { calls } = fakeFetch(router({ 'GET /api/openapi.json': () => jsonResponse(DOC) }, ADMIN));
    renderInAdmin(<ApiReferencePage />, { path: '/api-reference' });
    const table = await screen.findByRole('table', { name: 'Routes' });
    const scan = within(table).getByText('/api/scan').closest('tr')!;
    expect(scan).toHaveTextContent('POST');
    expect(scan).toHaveTextContent('Scan a slug code at the packing bench');
    expect(scan).toHaveTextContent("Any signed-in user; acts on the caller's own site's records.");
    expect(scan).toHaveTextContent('Body: code (string)');
    expect(within(table).getByText('/api/batches').closest('tr')).toHaveTextContent('Query: state? (one of open | printed | cut | packed)');
    expect(calls.some((c) => c.url === '/api/openapi.json')).toBe(true);

    await userEvent.type(screen.getByLabelText('Find a route'), 'batches');
    expect(within(table).queryByText('/api/scan')).not.toBeInTheDocument();
    expect(within(table).getByText('/api/batches')).toBeInTheDocument();
  });

  it('is refused to a user who is not an admin', async () => {
    signIn(USER);
    fakeFetch(router({ 'GET /api/openapi.json': () => jsonResponse(DOC) }, USER));
    renderInAdmin(<ApiReferencePage />, { path: '/api-reference' });
    expect(await screen.findByText("You don't have the right permissions to access this page")).toBeInTheDocument();
    expect(screen.queryByRole('table', { name: 'Routes' })).not.toBeInTheDocument();
  });

  it('lists the fields of each alternative body', () => {
    expect(fieldsOf({ anyOf: [{ type: 'object', properties: { id: { type: 'integer' } }, required: ['id'] }, { type: 'object', properties: { ids: { type: 'array', items: { type: 'integer' } } } }] })).toEqual([
      { name: 'id', type: 'integer', required: true },
      { name: 'ids', type: 'integer[]', required: false },
    ]);
  });
});
