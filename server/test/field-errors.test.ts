// A refusal about input reads as a person would write it ("First name is required."), names the
// field's label, not its key; the key stays for programs in `field` and `details: [{field, message}]`.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { fieldLabel, fieldSentence } from '../src/http/fieldErrors';
import { parse } from '../src/http/validate';
import { HttpError } from '../src/http/errors';
import { bearer, createWorld } from './harness';

const UPLOAD_TYPES = 'File type must be one of PNG, JPEG, WebP, GIF, PDF, CSV or JSON.';

describe('field errors over HTTP', async () => {
  const w = await createWorld();
  const post = (path: string, token: string, body: object, headers: Record<string, string> = {}) => w.request().post(path).set(bearer(token)).set(headers).send(body);

  it('a missing first name (schema) → "First name is required." with field firstName', async () => {
    const res = await post('/api/users/register', w.tokens.adminA, { email: 'someone@example.com', password: 'a good password', siteId: w.sites.a });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      success: false,
      error: 'First name is required.',
      field: 'firstName',
      details: [{ field: 'firstName', message: 'First name is required.' }],
    });
  });

  it('a missing first name on create (the service) → the same sentence and field', async () => {
    const res = await post('/api/users/upsert', w.tokens.adminA, { email: 'other@example.com', password: 'a good password', siteId: w.sites.a });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: 'First name is required.', field: 'firstName', details: [{ field: 'firstName', message: 'First name is required.' }] });
  });

  it('every failing field is in details, the first one in error and field', async () => {
    const res = await post('/api/users/register', w.tokens.adminA, { firstName: 'A', email: 'bad', password: 'short', siteId: w.sites.a });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('Email is not a valid email address.');
    expect(res.body.field).toBe('email');
    expect(res.body.details).toEqual([
      { field: 'email', message: 'Email is not a valid email address.' },
      { field: 'password', message: 'Password must be at least 8 characters.' },
    ]);
  });

  it('a name too long (zod\'s own wording) → "Name must be at most 200 characters."', async () => {
    const res = await post('/api/admin/sites', w.tokens.adminA, { name: 'x'.repeat(201), slug: 'long-name' });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: 'Name must be at most 200 characters.', field: 'name' });
    expect(res.body.error).not.toMatch(/Too big|<=/);
  });

  it('an upload of a type not allowed → the file type\'s label and the types by name', async () => {
    const res = await post('/api/users/me/get-upload-url', w.tokens.userA, { serverSidePath: 'x/evil.svg', contentType: 'image/svg+xml' });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: UPLOAD_TYPES, field: 'contentType', details: [{ field: 'contentType', message: UPLOAD_TYPES }] });
  });

  it('a hand-written refusal in a service (an unknown site) carries field too', async () => {
    const res = await post('/api/users/register', w.tokens.adminA, { firstName: 'A', email: 'nosite@example.com', password: 'a good password', siteId: 999999 });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: 'Site does not exist.', field: 'siteId' });
  });

  it('a 409 about a field (a slug in use) names the field as well', async () => {
    const res = await post('/api/admin/sites', w.tokens.adminA, { name: 'Copy', slug: 'site-b' });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ error: 'Another site already uses this slug.', field: 'slug' });
  });

  it('a bad Idempotency-Key → a sentence, field Idempotency-Key', async () => {
    const res = await post('/api/print-jobs', w.tokens.userA, { productName: 'Keyed', quantity: 1 }, { 'Idempotency-Key': 'has spaces in it' });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: 'The Idempotency-Key header must be 1 to 255 visible characters (e.g. a UUID).', field: 'Idempotency-Key' });
  });

  it('an admin REST list parameter → its label, not "filter.role:"', async () => {
    const res = await w.request().get('/api/admin/users').query({ filter: JSON.stringify({ role: 'boss' }) }).set(bearer(w.tokens.adminA));
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: 'Role filter must be admin or user.', field: 'filter.role' });
  });
});

describe('fieldErrors words', () => {
  const refusal = (schema: z.ZodType, value: unknown) => {
    try {
      parse(schema, value);
    } catch (err) {
      return err as HttpError;
    }
    throw new Error('parsed');
  };

  it.each([
    [z.object({ firstName: z.string() }), {}, 'firstName', 'First name is required.'],
    [z.object({ name: z.string().max(64) }), { name: 'x'.repeat(65) }, 'name', 'Name must be at most 64 characters.'],
    [z.object({ name: z.string().min(3) }), { name: 'x' }, 'name', 'Name must have at least 3 characters.'],
    [z.object({ quantity: z.number().int() }), { quantity: 1.5 }, 'quantity', 'Quantity must be a whole number.'],
    [z.object({ quantity: z.number().max(9) }), { quantity: 10 }, 'quantity', 'Quantity must be at most 9.'],
    [z.object({ email: z.email() }), { email: 'no' }, 'email', 'Email must be an email address.'],
    [z.object({ contentType: z.enum(['image/png', 'image/jpeg']) }), { contentType: 'x' }, 'contentType', 'File type must be PNG or JPEG.'],
    [z.object({ data: z.record(z.string(), z.unknown()) }), { data: 'x' }, 'data', 'Data must be an object.'],
    [z.object({ urls: z.array(z.string().max(2)) }), { urls: ['ok', 'long'] }, 'urls.1', 'Image URLs item 2 must be at most 2 characters.'],
    [z.object({ a: z.string() }).strict(), { a: 'x', extraThing: 1 }, 'extraThing', 'Extra thing is not a field this call takes.'],
  ])('%#: %j → %s', (schema, value, field, sentence) => {
    const err = refusal(schema, value);
    expect(err.status).toBe(400);
    expect(err.message).toBe(sentence);
    expect(err.field).toBe(field);
  });

  it('a schema\'s own wording is kept, after the label', () => {
    expect(refusal(z.object({ slug: z.string().regex(/^a$/, 'may only be a') }), { slug: 'b' }).message).toBe('Slug may only be a.');
  });

  it('labels: nested keys, filters and settings names', () => {
    expect(fieldLabel('hpAdditionData.stockItems.0.quantity')).toBe('Quantity of stock items item 1');
    expect(fieldLabel('filter.productType')).toBe('Product type filter');
    expect(fieldLabel('theme.mainColor')).toBe('Theme main colour');
    expect(fieldLabel('RE_CONSENT_SOURCE')).toBe('RE_CONSENT_SOURCE');
    expect(fieldSentence('orderId', 'is required')).toBe('Order ID is required.');
    expect(fieldSentence('slug', 'Another site already uses this slug.')).toBe('Another site already uses this slug.');
  });
});
