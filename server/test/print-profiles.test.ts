// The printers' colour profiles: an uploaded CMYK output profile is checked, listed by name and
// carried as the OutputIntent of the site's print files (read back from the PDF, PDF/X checker
// clean); RGB, display and non-ICC files are refused with a sentence; a changed profile redraws
// the cached print file.
import { decodePDFRawStream, PDFArray, PDFDict, PDFDocument, PDFName, PDFRawStream, PDFString } from 'pdf-lib';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { checkOutputProfile } from '../src/modules/pdf';
import { checkPdfX4 } from '../src/modules/pdf/pdfxCheck';
import { bearer, binary, createWorld } from './harness';
import { iccProfile } from './iccFixtures';
import { artworkRgb, pngOf, storeFile } from './imageFixtures';
import { setSiteEnv } from './ordersKit';

const FOGRA = 'Coated FOGRA39-like (test, ISO 12647-2)';

/** The PDF's GTS_PDFX output intent: its names and its embedded profile. */
async function outputIntentOf(pdf: Buffer) {
  const doc = await PDFDocument.load(pdf, { updateMetadata: false });
  const intents = doc.catalog.lookup(PDFName.of('OutputIntents'), PDFArray);
  expect(intents.size()).toBe(1);
  const intent = doc.context.lookup(intents.get(0), PDFDict);
  const text = (key: string) => (intent.get(PDFName.of(key)) as PDFString).decodeText();
  const stream = doc.context.lookup(intent.get(PDFName.of('DestOutputProfile'))) as PDFRawStream;
  return {
    identifier: text('OutputConditionIdentifier'),
    condition: text('OutputCondition'),
    info: text('Info'),
    profile: Buffer.from(decodePDFRawStream(stream).decode()),
  };
}

describe('print profiles', async () => {
  const w = await createWorld();
  const upload = (bytes: Buffer, fields: Record<string, string> = {}, token = w.tokens.adminA, filename = 'printer.icc') => {
    let r = w.request().post('/api/print-profiles').set(bearer(token)).attach('file', bytes, filename);
    for (const [k, v] of Object.entries(fields)) r = r.field(k, v);
    return r;
  };
  const png = await pngOf(artworkRgb(160, 220, 3), 160, 220);
  const art = await Promise.all([1, 2, 3, 4].map((i) => storeFile(w.services.store, `page-${i}.png`, png)));
  const printFile = async (jobId: number) => {
    const res = await w.request().post('/api/pdf/from-print-job').set(bearer(w.tokens.userA)).send({ id: jobId }).buffer(true).parse(binary);
    expect(res.status, String(res.body)).toBe(200);
    return res.body as Buffer;
  };
  const job = async () => {
    const res = await w.request().post('/api/print-jobs').set(bearer(w.tokens.userA)).send({ artworkUrls: art, productName: 'Card with the printer\'s colours', quantity: 1 });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data.id as number;
  };

  it('a FOGRA39-like CMYK output profile (v2, built here) is taken: id, name from its desc tag, CMYK, prtr', async () => {
    const res = await upload(iccProfile({ name: FOGRA }), { siteId: String(w.sites.a) });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data).toMatchObject({ id: expect.any(Number), name: FOGRA, colorSpace: 'CMYK', deviceClass: 'prtr', version: 2, siteId: w.sites.a });
    const v4 = await upload(iccProfile({ name: 'Press 7 uncoated (v4)', version: 4 }));
    expect(v4.status, JSON.stringify(v4.body)).toBe(201);
    expect(v4.body.data).toMatchObject({ name: 'Press 7 uncoated (v4)', version: 4, siteId: null });
  });

  it('an RGB profile, a display profile, an input profile and a file that is not ICC are refused with a sentence naming the field', async () => {
    const srgbPng = await sharp({ create: { width: 1, height: 1, channels: 3, background: '#fff' } }).withIccProfile('srgb').png().toBuffer();
    const srgb = (await sharp(srgbPng).metadata()).icc!;
    const cases: Array<[Buffer, RegExp]> = [
      [srgb, /^The profile is a display \(monitor\) profile \(RGB\), not a printer's output profile/],
      [iccProfile({ name: 'Monitor', deviceClass: 'mntr', colourSpace: 'RGB ' }), /display \(monitor\) profile/],
      [iccProfile({ name: 'RGB printer', colourSpace: 'RGB ' }), /^The profile is a RGB output profile, not CMYK/],
      [iccProfile({ name: 'Scanner', deviceClass: 'scnr' }), /input \(scanner or camera\) profile/],
      [iccProfile({ name: 'No tables', without: ['A2B0', 'B2A0'] }), /lacks its device-to-colour table \(A2B0\) and its colour-to-device table \(B2A0\)/],
      [png, /^The file is not an ICC colour profile/],
    ];
    const before = (await w.db('print_profiles').count({ n: '*' }))[0].n;
    for (const [bytes, sentence] of cases) {
      const res = await upload(bytes);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ success: false, field: 'file' });
      expect(res.body.error).toMatch(sentence);
    }
    expect((await w.db('print_profiles').count({ n: '*' }))[0].n).toBe(before);
    expect(() => checkOutputProfile(new Uint8Array(srgb))).toThrow(/display/);
  });

  it('only admins upload; a user lists their site\'s and the instance\'s profiles, never another site\'s', async () => {
    expect((await upload(iccProfile({ name: 'Mine' }), {}, w.tokens.userA)).status).toBe(403);
    expect((await upload(iccProfile({ name: 'For B' }), { siteId: String(w.sites.b) })).status).toBe(201);
    expect((await upload(iccProfile({ name: 'X' }), { siteId: '999999' })).body).toMatchObject({ field: 'siteId' });
    expect((await w.request().post('/api/print-profiles').set(bearer(w.tokens.adminA)).send({})).body).toMatchObject({ field: 'file' });
    const seen = await w.request().get('/api/print-profiles').set(bearer(w.tokens.userA));
    const names = (seen.body.data as Array<{ name: string }>).map((p) => p.name);
    expect(names).toEqual(expect.arrayContaining([FOGRA, 'Press 7 uncoated (v4)']));
    expect(names).not.toContain('For B');
    const all = await w.request().get('/api/print-profiles').set(bearer(w.tokens.adminA));
    expect((all.body.data as Array<{ name: string }>).map((p) => p.name)).toContain('For B');
  });

  // Four print files are drawn: allow a loaded machine time (a limit, not a measure).
  it('the site\'s PRINT_OUTPUT_PROFILE is the OutputIntent of its print files (read back), PDF/X checker clean; another profile redraws the cached file', { timeout: 90_000 }, async () => {
    const profiles = (await w.request().get('/api/print-profiles').set(bearer(w.tokens.adminA))).body.data as Array<{ id: number; name: string }>;
    const fogra = profiles.find((p) => p.name === FOGRA)!;
    const v4 = profiles.find((p) => p.name === 'Press 7 uncoated (v4)')!;
    const forB = profiles.find((p) => p.name === 'For B')!;
    const id = await job();

    // No profile chosen: today's bundled profile.
    const bundled = await outputIntentOf(await printFile(id));
    expect(bundled.identifier).toBe('Custom');

    // Chosen through the site form's save: another site's profile is refused, the site's own is taken.
    const site = (await w.request().get(`/api/sites/${w.sites.a}`).set(bearer(w.tokens.adminA))).body.data;
    const save = (value: string) =>
      w.request().post('/api/sites').set(bearer(w.tokens.adminA)).send({ ...site, settings: { ...site.settings, env: [...site.settings.env.filter((v: { key: string }) => v.key !== 'PRINT_OUTPUT_PROFILE'), { key: 'PRINT_OUTPUT_PROFILE', value }] } });
    const foreign = await save(String(forB.id));
    expect(foreign.status).toBe(400);
    expect(foreign.body.error).toBe(`PRINT_OUTPUT_PROFILE ${forB.id} names no print profile this site may use: upload it on Print profiles, for this site or for every site`);
    expect((await save('FOGRA39')).body.error).toContain("PRINT_OUTPUT_PROFILE must be a print profile's number");
    expect((await save(String(fogra.id))).status).toBe(200);

    const pdf = await printFile(id);
    const intent = await outputIntentOf(pdf);
    expect(intent).toMatchObject({ identifier: FOGRA, condition: FOGRA, info: FOGRA });
    expect(intent.profile.equals(iccProfile({ name: FOGRA }))).toBe(true);
    expect(await checkPdfX4(new Uint8Array(pdf))).toEqual([]);
    // The same profile again: the file kept is served, byte for byte.
    expect((await printFile(id)).equals(pdf)).toBe(true);

    // Another profile (an instance-wide one): the cached file is drawn again with it.
    await setSiteEnv(w, w.sites.a, { PRINT_OUTPUT_PROFILE: String(v4.id) });
    const redrawn = await printFile(id);
    expect(redrawn.equals(pdf)).toBe(false);
    const v4Intent = await outputIntentOf(redrawn);
    expect(v4Intent.identifier).toBe('Press 7 uncoated (v4)');
    expect(v4Intent.profile.equals(iccProfile({ name: 'Press 7 uncoated (v4)', version: 4 }))).toBe(true);
    expect(await checkPdfX4(new Uint8Array(redrawn))).toEqual([]);

    // Back to none: the bundled profile again.
    await setSiteEnv(w, w.sites.a, { PRINT_OUTPUT_PROFILE: '' });
    expect((await outputIntentOf(await printFile(id))).identifier).toBe('Custom');
  });

  // A sheet of two cards is drawn: allow a loaded machine time (a limit, not a measure).
  it("the site's PRINT_OUTPUT_PROFILE, uploaded, is the OutputIntent of an imposed batch sheet (read back), PDF/X checker clean", { timeout: 90_000 }, async () => {
    const SHEET_PRESS = 'Sheet press coated (test)';
    const uploaded = await upload(iccProfile({ name: SHEET_PRESS }), { siteId: String(w.sites.a) });
    expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(201);
    await setSiteEnv(w, w.sites.a, { PRINT_OUTPUT_PROFILE: String(uploaded.body.data.id) });
    try {
      // Pages at print resolution (A5 with bleed at 300 ppi), so preflight lets the jobs be batched.
      const full = await sharp({ create: { width: 1819, height: 2551, channels: 3, background: '#3366cc' } }).png().toBuffer();
      const pages = await Promise.all([1, 2, 3, 4].map((i) => storeFile(w.services.store, `sheet-page-${i}.png`, full)));
      const sheetJob = async () => {
        const res = await w.request().post('/api/print-jobs').set(bearer(w.tokens.userA)).send({ artworkUrls: pages, productName: 'Birthday card', quantity: 1 });
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        return res.body.data.id as number;
      };
      const made = await w.request().post('/api/batches').set(bearer(w.tokens.userA)).send({ jobIds: [await sheetJob(), await sheetJob()] });
      expect(made.status, JSON.stringify(made.body)).toBe(200);
      const sheet = await w.request().get(`/api/batches/${made.body.data.id}/pdf`).set(bearer(w.tokens.userA)).buffer(true).parse(binary);
      expect(sheet.status, String(sheet.body)).toBe(200);
      const bytes = sheet.body as Buffer;
      const intent = await outputIntentOf(bytes);
      expect(intent).toMatchObject({ identifier: SHEET_PRESS, condition: SHEET_PRESS, info: SHEET_PRESS });
      // The very profile uploaded, embedded whole.
      expect(intent.profile.equals(iccProfile({ name: SHEET_PRESS }))).toBe(true);
      expect(await checkPdfX4(new Uint8Array(bytes))).toEqual([]);
    } finally {
      await setSiteEnv(w, w.sites.a, { PRINT_OUTPUT_PROFILE: '' });
    }
  });

  it('the instance-wide default (PRINT_OUTPUT_PROFILE in the environment) serves every site without its own', async () => {
    const v4 = ((await w.request().get('/api/print-profiles').set(bearer(w.tokens.adminA))).body.data as Array<{ id: number; name: string }>).find((p) => p.name === 'Press 7 uncoated (v4)')!;
    const before = w.config.artwork.outputProfile;
    w.config.artwork.outputProfile = v4.id;
    try {
      const intent = await w.services.printProfiles.outputIntentOf(w.sites.b);
      expect(intent.outputConditionIdentifier).toBe('Press 7 uncoated (v4)');
      w.config.artwork.outputProfile = 999_999;
      await expect(w.services.printProfiles.outputIntentOf(w.sites.b)).rejects.toThrow("The print profile 999999 named by the server's PRINT_OUTPUT_PROFILE does not exist or belongs to another site: choose one on Print profiles");
    } finally {
      w.config.artwork.outputProfile = before;
    }
  });
});
