// Demo print production: a few designs with generated artwork (4 A5 pages each, stored as files)
// and print jobs in every state, so the Jobs, Print History, Reports and Designs screens are not
// empty on first start. Jobs are made through the service (with a clock set in the past few days),
// so their history rows feed the reports exactly as real use would.
import sharp from 'sharp';
import type { Deps } from '../server/src/deps';
import type { Actor } from '../server/src/http/types';
import type { Clock } from '../server/src/lib/clock';
import { storeGeneratedFile } from '../server/src/modules/designs/artworkFiles';
import type { Design } from '../server/src/modules/designs/repo';
import type { PrintJob } from '../server/src/modules/print-jobs/repo';
import { printJobsService } from '../server/src/modules/print-jobs/service';
import type { Services } from '../server/src/services';
import type { DesignDocument, Layer, ProductType } from '../common/design-doc/types';

// A5 at 150 dpi: enough for the screens and a readable demo PDF, quick to make on first start.
const PAGE = { width: 874, height: 1240, dpi: 150 };

type Shape = 'circle' | 'diamond' | 'stripes' | 'sun';

const DEMO_DESIGNS: Array<{ site: string; name: string; sku: string; productType: Exclude<ProductType, 'E-card'>; colour: string; shape: Shape; staff: boolean }> = [
  { site: 'demo', name: 'Birthday Balloons', sku: 'DEMO-CARD-BDAY', productType: 'Card', colour: '#e91e63', shape: 'circle', staff: true },
  { site: 'demo', name: 'Thank You Leaves', sku: 'DEMO-CARD-THANKS', productType: 'Card', colour: '#43a047', shape: 'diamond', staff: true },
  { site: 'demo', name: 'Morning Mug', sku: 'DEMO-MUG-01', productType: 'Mug', colour: '#fbc02d', shape: 'sun', staff: false },
  { site: 'demo', name: 'City Skyline Poster', sku: 'DEMO-POSTER-01', productType: 'Poster', colour: '#1e88e5', shape: 'stripes', staff: false },
  { site: 'hope-harbour', name: 'Harbour Lights Christmas Card', sku: 'HH-XMAS-01', productType: 'Card', colour: '#1565c0', shape: 'sun', staff: true },
  { site: 'hope-harbour', name: 'Lighthouse Mug', sku: 'HH-MUG-01', productType: 'Mug', colour: '#00897b', shape: 'stripes', staff: false },
];

function shapeSvg(shape: Shape, colour: string): string {
  const { width: w, height: h } = PAGE;
  const cx = w / 2;
  const cy = h / 2;
  const body = {
    circle: `<circle cx="${cx}" cy="${cy - 80}" r="220" fill="${colour}"/><circle cx="${cx + 170}" cy="${cy + 140}" r="120" fill="${colour}" fill-opacity="0.6"/>`,
    diamond: `<polygon points="${cx},${cy - 300} ${cx + 220},${cy} ${cx},${cy + 300} ${cx - 220},${cy}" fill="${colour}"/>`,
    stripes: [0, 1, 2, 3, 4].map((i) => `<rect x="120" y="${260 + i * 150}" width="${w - 240}" height="70" fill="${colour}" fill-opacity="${1 - i * 0.15}"/>`).join(''),
    sun: `<circle cx="${cx}" cy="${cy}" r="170" fill="${colour}"/>${[0, 45, 90, 135].map((a) => `<rect x="${cx - 12}" y="${cy - 330}" width="24" height="660" fill="${colour}" transform="rotate(${a} ${cx} ${cy})"/>`).join('')}`,
  }[shape];
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}">${body}<rect x="40" y="40" width="${w - 80}" height="${h - 80}" fill="none" stroke="${colour}" stroke-width="12"/></svg>`;
}

/** One page: a background colour with the design's shape drawn on it. */
function page(background: string, svg?: string): Promise<Buffer> {
  const img = sharp({ create: { width: PAGE.width, height: PAGE.height, channels: 3, background } });
  return (svg ? img.composite([{ input: Buffer.from(svg) }]) : img).withMetadata({ density: PAGE.dpi }).png().toBuffer();
}

/**
 * The Birthday Balloons card as an editable, personalised document: the front names the
 * recipient ("Recipient name"), the inside carries the "Message" — the properties the demo store's
 * orders carry — so an order for DEMO-CARD-BDAY is rendered with the customer's words.
 */
export function birthdayCardDocument(): DesignDocument {
  const balloon = (id: string, x: number, y: number, size: number, fill: string): Layer => ({ id, name: 'Balloon', type: 'rect', x, y, width: size, height: size * 1.15, rotation: 0, opacity: 0.9, fill, radius: size / 2 });
  const string = (id: string, x: number, y: number, h: number): Layer => ({ id, name: 'String', type: 'rect', x, y, width: 0.6, height: h, rotation: 0, opacity: 1, fill: '#9e9e9e' });
  const text = (id: string, name: string, over: Partial<Extract<Layer, { type: 'text' }>>): Layer => ({
    id, name, type: 'text', x: 14, y: 0, width: 120, height: 20, rotation: 0, opacity: 1, text: '', fontFamily: 'Raleway', fontSize: 12, fontWeight: 400, color: '#333333', align: 'center', lineHeight: 1.2, ...over,
  });
  return {
    version: 1,
    format: 'card-a5',
    pages: [
      {
        id: 'front',
        name: 'Front',
        background: '#fce4ec',
        layers: [
          string('s1', 46, 64, 50), string('s2', 74, 50, 64), string('s3', 102, 70, 44),
          balloon('b1', 30, 28, 32, '#e91e63'), balloon('b2', 58, 12, 32, '#ab47bc'), balloon('b3', 86, 34, 32, '#ffb300'),
          text('title', 'Title', { y: 122, height: 26, text: 'Happy Birthday', fontFamily: 'Pacifico', fontSize: 40, color: '#c2185b' }),
          text('recipient', 'Recipient name', { y: 154, height: 22, text: 'Dear friend', fontWeight: 700, fontSize: 28, color: '#4a148c', field: { property: 'Recipient name', sample: 'Gran', maxLength: 40, fit: 'shrink' } }),
          { id: 'band', name: 'Band', type: 'rect', x: -3, y: 192, width: 154, height: 21, rotation: 0, opacity: 1, fill: '#e91e63' },
        ],
      },
      { id: 'inside-left', name: 'Inside left', background: '#ffffff', layers: [] },
      {
        id: 'inside-right',
        name: 'Inside right',
        background: '#ffffff',
        layers: [
          text('message', 'Message', { x: 20, y: 70, width: 108, height: 60, text: 'Wishing you a wonderful day!', fontFamily: 'Lora', fontSize: 20, lineHeight: 1.4, color: '#4a148c', field: { property: 'Message', sample: 'Wishing you a wonderful day!', maxLength: 200, fit: 'shrink' } }),
          balloon('b4', 66, 150, 16, '#e91e63'),
        ],
      },
      {
        id: 'back',
        name: 'Back',
        background: '#ffffff',
        layers: [balloon('b5', 69, 170, 10, '#e91e63'), text('credit', 'Credit', { y: 186, height: 8, text: 'Printed by Presswork', fontSize: 8, color: '#9e9e9e' })],
      },
    ],
  };
}

/** The charity's e-card (the site whose CRM is the simulator): e-mailed, never printed. */
export const DEMO_ECARD = { site: 'hope-harbour', name: "Season's greetings e-card", sku: 'ECARD-SEASONS' } as const;

/**
 * The Season's greetings e-card: a winter night with a tree on the snow; the recipient's name
 * ("Recipient name") and the buyer's "Message" are drawn from the order line's properties.
 */
export function seasonsGreetingsEcardDocument(): DesignDocument {
  const dot = (id: string, x: number, y: number, size: number, opacity = 0.85): Layer => ({ id, name: 'Snowflake', type: 'rect', x, y, width: size, height: size, rotation: 0, opacity, fill: '#ffffff', radius: size / 2 });
  // A square turned 45° about its centre: the tree's tiers and its star.
  const diamond = (id: string, name: string, cx: number, cy: number, side: number, fill: string): Layer => ({ id, name, type: 'rect', x: cx - side / 2, y: cy - side / 2, width: side, height: side, rotation: 45, opacity: 1, fill });
  const text = (id: string, name: string, over: Partial<Extract<Layer, { type: 'text' }>>): Layer => ({
    id, name, type: 'text', x: 8, y: 0, width: 84, height: 10, rotation: 0, opacity: 1, text: '', fontFamily: 'Raleway', fontSize: 10, fontWeight: 400, color: '#ffffff', align: 'left', lineHeight: 1.25, ...over,
  });
  return {
    version: 1,
    format: 'ecard',
    pages: [
      {
        id: 'front',
        name: 'Front',
        background: '#0f2a4a',
        layers: [
          dot('f1', 100, 8, 1.6), dot('f2', 134, 14, 1.2), dot('f3', 95, 30, 1), dot('f4', 139, 40, 1.8), dot('f5', 126, 6, 1),
          dot('f6', 90, 60, 1.4, 0.6), dot('f7', 142, 66, 1.2), dot('f8', 70, 8, 1, 0.5), dot('f9', 3, 4, 1.4, 0.5), dot('f10', 82, 40, 1, 0.5),
          { id: 'snow', name: 'Snow', type: 'rect', x: -10, y: 86, width: 168, height: 34, rotation: 0, opacity: 1, fill: '#eef4fb', radius: 17 },
          diamond('t1', 'Tree', 117, 66, 28, '#2e7d32'),
          diamond('t2', 'Tree', 117, 52, 22, '#388e3c'),
          diamond('t3', 'Tree', 117, 40, 16, '#43a047'),
          diamond('star', 'Star', 117, 30, 6, '#ffd54f'),
          text('title', 'Title', { y: 9, height: 16, text: "Season's Greetings", fontFamily: 'Pacifico', fontSize: 24, color: '#ffd54f' }),
          text('for', 'For', { y: 29, height: 5, text: 'A card for', fontSize: 9, color: '#90caf9' }),
          text('recipient', 'Recipient name', { y: 34, height: 9, text: 'Dear friend', fontWeight: 700, fontSize: 18, field: { property: 'Recipient name', sample: 'Dear friend', maxLength: 40, fit: 'shrink' } }),
          text('message', 'Message', {
            y: 47,
            height: 35,
            text: 'Wishing you peace and joy this winter, and every happiness in the year ahead.',
            fontFamily: 'Lora',
            fontSize: 12,
            lineHeight: 1.35,
            color: '#e3f2fd',
            field: { property: 'Message', sample: 'Wishing you peace and joy this winter, and every happiness in the year ahead.', maxLength: 300, fit: 'shrink' },
          }),
          text('credit', 'Credit', { y: 95, height: 5, text: 'Sent with love through Hope Harbour', fontSize: 7, color: '#546e7a' }),
        ],
      },
    ],
  };
}

/** A clock that stands still where the seed puts it. */
function seedClock(start: Date): Clock & { set(d: Date): void } {
  let now = start.getTime();
  return { now: () => new Date(now), set: (d) => void (now = d.getTime()) };
}

async function actorsOf(deps: Deps, siteId: number): Promise<{ admin: Actor; staff: Actor }> {
  const rows = await deps.db('users').where({ site_id: siteId }).orderBy('id');
  const toActor = (r: { id: number; first_name: string; last_name: string; email: string; role: 'admin' | 'user'; site_id: number }): Actor => ({
    id: r.id,
    firstName: r.first_name,
    lastName: r.last_name,
    email: r.email,
    role: r.role,
    siteId: r.site_id,
  });
  const admin = rows.find((r) => r.role === 'admin') ?? rows[0];
  const staff = rows.find((r) => r.role !== 'admin') ?? admin;
  return { admin: toActor(admin), staff: toActor(staff) };
}

/** Seeds designs and print jobs for the demo sites (slug → id). Returns what it made. */
export async function seedPrintProduction(deps: Deps, services: Services, siteIds: Record<string, number>) {
  const white = await page('#ffffff');
  const designs: Record<string, Design> = {};
  const actors: Record<string, { admin: Actor; staff: Actor }> = {};
  for (const slug of new Set(DEMO_DESIGNS.map((d) => d.site))) {
    if (siteIds[slug] !== undefined) actors[slug] = await actorsOf(deps, siteIds[slug]);
  }

  for (const d of DEMO_DESIGNS) {
    const siteId = siteIds[d.site];
    if (siteId === undefined || !actors[d.site]) continue;
    const creator = d.staff ? actors[d.site].staff : actors[d.site].admin;
    const svg = shapeSvg(d.shape, '#ffffff');
    const [front, inside, back] = await Promise.all([page(d.colour, svg), page('#ffffff', shapeSvg(d.shape, d.colour)), page('#fafafa', shapeSvg('circle', d.colour).replace(/r="220"/, 'r="60"'))]);
    const owner = { userId: creator.id, siteId };
    const slug = d.sku.toLowerCase();
    // The personalised card: its artwork is its document drawn with the sample values.
    const document = d.sku === 'DEMO-CARD-BDAY' ? birthdayCardDocument() : undefined;
    const rendered = document ? await services.render.renderAndStore(owner, document, { dpi: PAGE.dpi, name: slug }) : undefined;
    const urls = rendered?.images ?? [
      await storeGeneratedFile(deps, services.store, owner, `designs/${slug}-front.png`, 'image/png', front),
      await storeGeneratedFile(deps, services.store, owner, `designs/${slug}-inside-left.png`, 'image/png', white),
      await storeGeneratedFile(deps, services.store, owner, `designs/${slug}-inside-right.png`, 'image/png', inside),
      await storeGeneratedFile(deps, services.store, owner, `designs/${slug}-back.png`, 'image/png', back),
    ];
    designs[d.sku] = await services.designs.upsert(creator, {
      name: d.name,
      sku: d.sku,
      productType: d.productType,
      image: rendered?.preview ?? urls[0],
      isCustomizable: d.productType === 'Card',
      hpSKU: `HP-${d.productType.toUpperCase()}-A5`,
      hpAdditionData: {
        attributes: [{ name: 'Paper', value: d.productType === 'Card' ? 'Matte 350gsm' : 'Standard' }],
        stockItems: d.productType === 'Card' ? [{ code: 'ENV-C5', name: 'C5 envelope', quantity: 1 }] : [],
      },
      data: { artworkUrls: urls, ...(document ? { document } : {}) },
    });
  }

  // The charity's e-card: one page, drawn per order line for the e-mail; no print settings.
  const charity = siteIds[DEMO_ECARD.site];
  if (charity !== undefined && actors[DEMO_ECARD.site]) {
    const { admin } = actors[DEMO_ECARD.site];
    const document = seasonsGreetingsEcardDocument();
    const rendered = await services.render.renderAndStore({ userId: admin.id, siteId: charity }, document, { dpi: PAGE.dpi, name: DEMO_ECARD.sku.toLowerCase() });
    designs[DEMO_ECARD.sku] = await services.designs.upsert(admin, {
      name: DEMO_ECARD.name,
      sku: DEMO_ECARD.sku,
      productType: 'E-card',
      image: rendered.preview ?? rendered.images[0],
      isCustomizable: true,
      data: { artworkUrls: rendered.images, document },
    });
  }

  // Jobs over the last few days: waiting, downloaded, printed, reprinted, one held back.
  const now = deps.clock.now().getTime();
  const daysAgo = (days: number, hour: number) => new Date(Math.floor(now / 86_400_000) * 86_400_000 - days * 86_400_000 + hour * 3_600_000);
  const clock = seedClock(daysAgo(6, 9));
  const jobs = printJobsService({ ...deps, clock });
  const made: PrintJob[] = [];
  const plan: Array<{ sku: string; quantity: number; created: [number, number]; steps: Array<['download' | 'print' | 'reprint', number, number]>; note?: string; held?: boolean }> = [
    { sku: 'DEMO-CARD-BDAY', quantity: 2, created: [5, 9], steps: [['download', 4, 10], ['print', 4, 11]] },
    { sku: 'DEMO-MUG-01', quantity: 1, created: [5, 14], steps: [['download', 3, 9], ['print', 3, 10], ['reprint', 2, 9]], note: 'Handle print was off-centre; reprint.' },
    { sku: 'DEMO-POSTER-01', quantity: 1, created: [4, 10], steps: [['download', 2, 15], ['print', 2, 16]] },
    { sku: 'DEMO-CARD-THANKS', quantity: 5, created: [3, 8], steps: [], note: 'Use the cream envelopes.' },
    { sku: 'DEMO-CARD-BDAY', quantity: 1, created: [2, 12], steps: [['download', 1, 9]] },
    { sku: 'DEMO-CARD-THANKS', quantity: 1, created: [1, 16], steps: [], held: true },
    { sku: 'HH-XMAS-01', quantity: 25, created: [4, 11], steps: [['download', 3, 12], ['print', 3, 13]] },
    { sku: 'HH-MUG-01', quantity: 2, created: [1, 10], steps: [] },
  ];
  for (const p of plan) {
    const design = designs[p.sku];
    const site = DEMO_DESIGNS.find((d) => d.sku === p.sku)!.site;
    if (!design) continue;
    const { staff } = actors[site];
    clock.set(daysAgo(...p.created));
    let job = await jobs.create(staff, { designId: design.id, quantity: p.quantity, flags: p.held ? { readyForPrint: false } : undefined });
    for (const [step, days, hour] of p.steps) {
      clock.set(daysAgo(days, hour));
      if (step === 'download') job = await jobs.markDownloaded(staff, job.id);
      if (step === 'print') job = await jobs.change(staff, { id: job.id, isPrinted: true });
      if (step === 'reprint') job = await jobs.change(staff, { id: job.id, isPDFDownloaded: false, isPrinted: false, isRePrinted: true });
    }
    if (p.note) await services.generalData.upsert(staff, 'production-note', { id: undefined, field1: String(job.id), data: { note: p.note } });
    made.push(job);
  }
  return { designs: Object.values(designs), jobs: made };
}
