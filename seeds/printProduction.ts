// Demo print production: a few designs with generated artwork (a card 4 pages, a mug or poster one,
// stored as files), print jobs in every state, and a mug and a poster made in house end to end (batch,
// sheet, scan), so the Jobs, Print History, Reports, Batches and Designs screens are not empty on
// first start. The artwork is print-ready — 300 ppi, each product's own size with its bleed — so the
// demo jobs pass preflight; one demo store order carries a customer's photo too small for its box, so
// its job is held. Jobs are made through the services (with a clock set in the past few days), so
// their history rows feed the reports exactly as real use would.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { copyCode } from '../common/api/scan';
import type { Deps } from '../server/src/deps';
import type { Actor } from '../server/src/http/types';
import { isoNow, type Clock } from '../server/src/lib/clock';
import { storeGeneratedFile } from '../server/src/modules/designs/artworkFiles';
import type { Design } from '../server/src/modules/designs/repo';
import { SHOPIFY_SOURCE } from '../server/src/modules/orders/repo';
import type { PrintJob } from '../server/src/modules/print-jobs/repo';
import { createPreflight } from '../server/src/modules/print-jobs/preflight';
import { printJobsService } from '../server/src/modules/print-jobs/service';
import { shipByViews } from '../server/src/modules/ship-by';
import { shippedLinesIn } from '../server/src/modules/fulfilment';
import type { Services } from '../server/src/services';
import { formatSpec, pagePixelSize } from '../common/design-doc/render';
import { FORMATS, type DesignDocument, type Format, type Layer } from '../common/design-doc/types';
import { fakeOrder } from '../server/simulators/shopify';

/** What printers ask for: the demo's printed artwork is drawn at this resolution. */
export const PRINT_PPI = 300;
/** The e-card is e-mailed, never printed: screen resolution is enough. */
const SCREEN_PPI = 150;
/** Width of a design's picture in the lists (its front page's trim box), px. */
const PREVIEW_WIDTH = 600;

type Shape = 'circle' | 'diamond' | 'stripes' | 'sun';

/** The demo's printed designs; each product's size (trim, bleed, safe area) is its format's. */
export const DEMO_DESIGNS: Array<{ site: string; name: string; sku: string; format: Exclude<Format, 'ecard'>; colour: string; shape: Shape; staff: boolean }> = [
  { site: 'demo', name: 'Birthday Balloons', sku: 'DEMO-CARD-BDAY', format: 'card-a5', colour: '#e91e63', shape: 'circle', staff: true },
  { site: 'demo', name: 'Thank You Leaves', sku: 'DEMO-CARD-THANKS', format: 'card-a5', colour: '#43a047', shape: 'diamond', staff: true },
  { site: 'demo', name: 'Morning Mug', sku: 'DEMO-MUG-01', format: 'mug-wrap', colour: '#fbc02d', shape: 'sun', staff: false },
  { site: 'demo', name: 'City Skyline Poster', sku: 'DEMO-POSTER-01', format: 'poster-a3', colour: '#1e88e5', shape: 'stripes', staff: false },
  { site: 'demo', name: 'Family Photo Card', sku: 'DEMO-CARD-PHOTO', format: 'card-a5', colour: '#6d4c41', shape: 'circle', staff: true },
  { site: 'hope-harbour', name: 'Harbour Lights Christmas Card', sku: 'HH-XMAS-01', format: 'card-a5', colour: '#1565c0', shape: 'sun', staff: true },
  { site: 'hope-harbour', name: 'Lighthouse Mug', sku: 'HH-MUG-01', format: 'mug-wrap', colour: '#00897b', shape: 'stripes', staff: false },
];

/** A page of a format: its size in mm with the bleed, the safe box inside the trim, and its size in pixels. */
function pageGeometry(format: Format) {
  const spec = formatSpec({ format });
  const px = pagePixelSize({ format }, PRINT_PPI);
  const inset = spec.bleed + spec.safe;
  return {
    widthMm: spec.width + 2 * spec.bleed,
    heightMm: spec.height + 2 * spec.bleed,
    safe: { x: inset, y: inset, width: spec.width - 2 * spec.safe, height: spec.height - 2 * spec.safe },
    trimPx: { left: Math.round((spec.bleed * px.width) / (spec.width + 2 * spec.bleed)), top: Math.round((spec.bleed * px.height) / (spec.height + 2 * spec.bleed)) },
    px,
  };
}
type PageGeometry = ReturnType<typeof pageGeometry>;

/**
 * The design's shape and a frame, in mm from the page's corner (bleed included), drawn inside the
 * format's safe area whatever the page's proportions (a mug's wrap is wide, a card tall).
 */
function shapeSvg(g: PageGeometry, shape: Shape, colour: string, scale = 1): string {
  const { x, y, width: w, height: h } = g.safe;
  const u = Math.min(w, h) * scale;
  const cx = x + w / 2;
  const cy = y + h / 2;
  const body = {
    circle: `<circle cx="${cx}" cy="${cy - 0.12 * u}" r="${0.3 * u}" fill="${colour}"/><circle cx="${cx + 0.22 * u}" cy="${cy + 0.2 * u}" r="${0.17 * u}" fill="${colour}" fill-opacity="0.6"/>`,
    diamond: `<polygon points="${cx},${cy - 0.44 * u} ${cx + 0.32 * u},${cy} ${cx},${cy + 0.44 * u} ${cx - 0.32 * u},${cy}" fill="${colour}"/>`,
    stripes: [0, 1, 2, 3, 4].map((i) => `<rect x="${x + 0.08 * w}" y="${y + 0.12 * h + i * 0.16 * h}" width="${0.84 * w}" height="${0.08 * h}" fill="${colour}" fill-opacity="${1 - i * 0.15}"/>`).join(''),
    sun: `<circle cx="${cx}" cy="${cy}" r="${0.2 * u}" fill="${colour}"/>${[0, 45, 90, 135].map((a) => `<rect x="${cx - 0.0175 * u}" y="${cy - 0.45 * u}" width="${0.035 * u}" height="${0.9 * u}" fill="${colour}" transform="rotate(${a} ${cx} ${cy})"/>`).join('')}`,
  }[shape];
  // The frame's 2 mm stroke lies wholly inside the safe area.
  const frame = `<rect x="${x + 1}" y="${y + 1}" width="${w - 2}" height="${h - 2}" fill="none" stroke="${colour}" stroke-width="2"/>`;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${g.px.width}" height="${g.px.height}" viewBox="0 0 ${g.widthMm} ${g.heightMm}">${body}${frame}</svg>`;
}

/** One page at print size: the background fills the bleed, the shape is drawn on it. */
function page(g: PageGeometry, background: string, svg?: string): Promise<Buffer> {
  const img = sharp({ create: { width: g.px.width, height: g.px.height, channels: 3, background } });
  // No alpha channel: a print page is opaque (and an RGB PNG is smaller and quicker to embed).
  return (svg ? img.composite([{ input: Buffer.from(svg) }]).removeAlpha() : img).withMetadata({ density: PRINT_PPI }).png().toBuffer();
}

/** The lists' picture of a design: its front page's trim box, small. */
function preview(g: PageGeometry, front: Buffer): Promise<Buffer> {
  const { left, top } = g.trimPx;
  return sharp(front)
    .extract({ left, top, width: g.px.width - 2 * left, height: g.px.height - 2 * top })
    .resize({ width: PREVIEW_WIDTH })
    .png()
    .toBuffer();
}

/** A design's four pages: front, inside left (blank), inside right and back. */
async function designPages(d: (typeof DEMO_DESIGNS)[number]): Promise<{ pages: Buffer[]; preview: Buffer }> {
  const g = pageGeometry(d.format);
  const pages = await Promise.all([
    page(g, d.colour, shapeSvg(g, d.shape, '#ffffff')),
    page(g, '#ffffff'),
    page(g, '#ffffff', shapeSvg(g, d.shape, d.colour)),
    page(g, '#fafafa', shapeSvg(g, 'circle', d.colour, 0.3)),
  ]);
  return { pages, preview: await preview(g, pages[0]) };
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

/** The demo store's customer photo: too few pixels for the card's photo box (about 68 ppi there). */
export const LOW_RES_PHOTO = { width: 240, height: 320 } as const;
/** The Family Photo Card's photo box, mm: 3:4 like a phone's portrait photo. */
const PHOTO_BOX = { x: 29, y: 24, width: 90, height: 120 } as const;

/**
 * A made-up "photo" (sky, sun, hills) of a size: the card's sample at print resolution, and the
 * customer's small one. Drawn, not shipped, so the demo carries no third-party image.
 */
function photo(width: number, height: number, jpegQuality = 88): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 300 400">
<defs><linearGradient id="sky" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#4fc3f7"/><stop offset="1" stop-color="#fff3e0"/></linearGradient></defs>
<rect width="300" height="400" fill="url(#sky)"/><circle cx="215" cy="110" r="42" fill="#ffca28"/>
<path d="M0 270 Q 80 200 160 260 T 300 240 V 400 H 0 Z" fill="#7cb342"/><path d="M0 320 Q 120 260 220 320 T 300 310 V 400 H 0 Z" fill="#558b2f"/>
<circle cx="95" cy="275" r="16" fill="#5d4037"/><rect x="83" y="290" width="24" height="50" rx="8" fill="#e53935"/>
<circle cx="140" cy="285" r="12" fill="#5d4037"/><rect x="131" y="296" width="18" height="38" rx="6" fill="#1e88e5"/></svg>`;
  return sharp(Buffer.from(svg)).flatten({ background: '#ffffff' }).jpeg({ quality: jpegQuality }).toBuffer();
}

/**
 * The Family Photo Card: the front prints the customer's photo (the order line's "Photo"
 * property, an image on our own host); `sampleUrl` is drawn when an order has none.
 */
export function familyPhotoCardDocument(sampleUrl: string): DesignDocument {
  const text = (id: string, name: string, over: Partial<Extract<Layer, { type: 'text' }>>): Layer => ({
    id, name, type: 'text', x: 14, y: 0, width: 120, height: 20, rotation: 0, opacity: 1, text: '', fontFamily: 'Raleway', fontSize: 12, fontWeight: 400, color: '#4e342e', align: 'center', lineHeight: 1.2, ...over,
  });
  return {
    version: 1,
    format: 'card-a5',
    pages: [
      {
        id: 'front',
        name: 'Front',
        background: '#efebe9',
        layers: [
          { id: 'mount', name: 'Mount', type: 'rect', x: PHOTO_BOX.x - 3, y: PHOTO_BOX.y - 3, width: PHOTO_BOX.width + 6, height: PHOTO_BOX.height + 6, rotation: 0, opacity: 1, fill: '#ffffff' },
          { id: 'photo', name: 'Photo', type: 'image', ...PHOTO_BOX, rotation: 0, opacity: 1, src: sampleUrl, fit: 'cover', field: { property: 'Photo', sample: sampleUrl, fit: 'clip' } },
          text('title', 'Title', { y: 158, height: 22, text: 'With love', fontFamily: 'Pacifico', fontSize: 32, color: '#6d4c41' }),
        ],
      },
      { id: 'inside-left', name: 'Inside left', background: '#ffffff', layers: [] },
      { id: 'inside-right', name: 'Inside right', background: '#ffffff', layers: [text('message', 'Message', { x: 20, y: 80, width: 108, height: 40, text: 'Thinking of you', fontFamily: 'Lora', fontSize: 20 })] },
      { id: 'back', name: 'Back', background: '#ffffff', layers: [text('credit', 'Credit', { y: 186, height: 8, text: 'Printed by Presswork', fontSize: 8, color: '#9e9e9e' })] },
    ],
  };
}

/** The charity's e-card (the site whose CRM is the simulator): e-mailed, never printed. */
export const DEMO_ECARD = { site: 'hope-harbour', name: "Season's greetings e-card", sku: 'ECARD-SEASONS' } as const;

/** The charity's picture e-card: a picture made elsewhere and uploaded, no editor document; e-mailed as it is. */
export const DEMO_PICTURE_ECARD = { site: 'hope-harbour', name: 'Robin in the snow picture e-card', sku: 'ECARD-ROBIN' } as const;

/** The picture e-card's picture (a JPEG 1800 × 1260, as a designer's export would be): a robin on a snowy branch. */
function robinPicture(): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1800" height="1260" viewBox="0 0 300 210">
<defs><linearGradient id="sky" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#b3cde0"/><stop offset="1" stop-color="#f4f8fb"/></linearGradient></defs>
<rect width="300" height="210" fill="url(#sky)"/><path d="M0 170 Q 90 140 180 168 T 300 160 V 210 H 0 Z" fill="#ffffff"/>
<path d="M20 128 L 280 112" stroke="#5d4037" stroke-width="7" stroke-linecap="round"/><path d="M20 124 L 280 108" stroke="#ffffff" stroke-width="3" stroke-linecap="round"/>
<ellipse cx="150" cy="92" rx="34" ry="27" fill="#6d4c41"/><ellipse cx="142" cy="98" rx="22" ry="18" fill="#e65100"/><circle cx="170" cy="70" r="16" fill="#6d4c41"/>
<circle cx="160" cy="76" r="9" fill="#e65100"/><circle cx="175" cy="66" r="2.5" fill="#212121"/><path d="M185 70 L 194 72 L 185 75 Z" fill="#ffb300"/>
<path d="M118 92 L 96 84 L 100 100 Z" fill="#4e342e"/><path d="M146 117 L 143 128 M 156 117 L 158 127" stroke="#3e2723" stroke-width="2"/>
<circle cx="40" cy="30" r="2" fill="#fff"/><circle cx="90" cy="18" r="1.5" fill="#fff"/><circle cx="240" cy="40" r="2.2" fill="#fff"/><circle cx="270" cy="20" r="1.4" fill="#fff"/><circle cx="210" cy="12" r="1.8" fill="#fff"/></svg>`;
  return sharp(Buffer.from(svg)).flatten({ background: '#ffffff' }).jpeg({ quality: 86 }).toBuffer();
}

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
  const designs: Record<string, Design> = {};
  const actors: Record<string, { admin: Actor; staff: Actor }> = {};
  for (const slug of new Set(DEMO_DESIGNS.map((d) => d.site))) {
    if (siteIds[slug] !== undefined) actors[slug] = await actorsOf(deps, siteIds[slug]);
  }
  const present = DEMO_DESIGNS.filter((d) => siteIds[d.site] !== undefined && actors[d.site]);
  const creatorOf = (d: (typeof DEMO_DESIGNS)[number]) => (d.staff ? actors[d.site].staff : actors[d.site].admin);

  /** A design's stored pages and picture: a personalised card's document drawn with its samples, else generated pages. */
  async function artworkOf(d: (typeof DEMO_DESIGNS)[number]) {
    const owner = { userId: creatorOf(d).id, siteId: siteIds[d.site] };
    const slug = d.sku.toLowerCase();
    const store = (name: string, type: 'image/png' | 'image/jpeg', bytes: Buffer) => storeGeneratedFile(deps, services.store, owner, `designs/${slug}-${name}`, type, bytes);
    const document =
      d.sku === 'DEMO-CARD-BDAY' ? birthdayCardDocument() : d.sku === 'DEMO-CARD-PHOTO' ? familyPhotoCardDocument(await store('sample-photo.jpg', 'image/jpeg', await photo(1200, 1600))) : undefined;
    if (document) {
      const rendered = await services.render.renderAndStore(owner, document, { dpi: PRINT_PPI, name: slug });
      return { document, urls: rendered.images, image: rendered.preview ?? rendered.images[0] };
    }
    const made = await designPages(d);
    // A card prints its 4 pages; a mug its one wrap, a poster its one page (the format's count).
    const names = FORMATS[d.format].pageNames.length === 4 ? ['front', 'inside-left', 'inside-right', 'back'] : [FORMATS[d.format].pageNames[0].toLowerCase()];
    const urls = await Promise.all(names.map((name, i) => store(`${name}.png`, 'image/png', made.pages[i])));
    return { document, urls, image: await store('preview.png', 'image/png', made.preview) };
  }

  // Drawn side by side (first start waits for them); saved one by one, in the list's order.
  const charity = siteIds[DEMO_ECARD.site];
  const ecardAdmin = charity !== undefined ? actors[DEMO_ECARD.site]?.admin : undefined;
  const ecardDocument = seasonsGreetingsEcardDocument();
  const [artworks, ecard] = await Promise.all([
    Promise.all(present.map(artworkOf)),
    ecardAdmin ? services.render.renderAndStore({ userId: ecardAdmin.id, siteId: charity }, ecardDocument, { dpi: SCREEN_PPI, name: DEMO_ECARD.sku.toLowerCase() }) : undefined,
  ]);
  // Stock of blanks of the demo site, and what each of its designs takes; the mugs near their reorder point.
  const stockOf: Record<string, Array<{ stockItemId: number; perUnit: number }>> = {};
  const demoActors = actors.demo;
  if (demoActors) {
    const item = async (name: string, unit: string, onHand: number, reorderPoint: number, reorderQuantity: number, supplierNote: string) =>
      (await services.stock.save(demoActors.staff, { name, unit, onHand, reorderPoint, reorderQuantity, supplierNote, siteId: siteIds.demo })).id;
    const cards = await item('Card blanks A5', 'cards', 400, 100, 500, 'Paperco, 3 working days');
    const envelopes = await item('C5 envelopes', 'envelopes', 380, 100, 500, 'Paperco, 3 working days');
    const mugs = await item('White mugs 11 oz', 'mugs', 13, 12, 36, 'Mugs Direct, 36 a box, 5 days');
    const sheets = await item('Sublimation sheets A4', 'sheets', 120, 40, 200, 'Mugs Direct');
    const posters = await item('Poster paper A3', 'sheets', 60, 20, 100, 'Paperco');
    stockOf['card-a5'] = [{ stockItemId: cards, perUnit: 1 }, { stockItemId: envelopes, perUnit: 1 }];
    // A mug wrap prints two-up: half a sheet a mug.
    stockOf['mug-wrap'] = [{ stockItemId: mugs, perUnit: 1 }, { stockItemId: sheets, perUnit: 0.5 }];
    stockOf['poster-a3'] = [{ stockItemId: posters, perUnit: 1 }];
  }
  for (const [i, d] of present.entries()) {
    const { document, urls, image } = artworks[i];
    const productType = FORMATS[d.format].productType;
    const consumes = d.site === 'demo' ? stockOf[d.format] : undefined;
    designs[d.sku] = await services.designs.upsert(creatorOf(d), {
      name: d.name,
      sku: d.sku,
      productType,
      image,
      isCustomizable: productType === 'Card',
      hpSKU: `HP-${productType.toUpperCase()}-A5`,
      hpAdditionData: {
        attributes: [{ name: 'Paper', value: productType === 'Card' ? 'Matte 350gsm' : 'Standard' }],
        stockItems: productType === 'Card' ? [{ code: 'ENV-C5', name: 'C5 envelope', quantity: 1 }] : [],
      },
      data: { artworkUrls: urls, ...(document ? { document } : {}), ...(consumes ? { consumes } : {}) },
    });
  }

  // The charity's e-card: one page, drawn per order line for the e-mail; no print settings.
  if (ecard && ecardAdmin) {
    designs[DEMO_ECARD.sku] = await services.designs.upsert(ecardAdmin, {
      name: DEMO_ECARD.name,
      sku: DEMO_ECARD.sku,
      productType: 'E-card',
      image: ecard.preview ?? ecard.images[0],
      isCustomizable: true,
      data: { artworkUrls: ecard.images, document: ecardDocument },
    });
    // The picture e-card: only its picture, e-mailed as it is with the buyer's message in the text.
    const picture = await storeGeneratedFile(deps, services.store, { userId: ecardAdmin.id, siteId: charity! }, `designs/${DEMO_PICTURE_ECARD.sku.toLowerCase()}.jpg`, 'image/jpeg', await robinPicture());
    designs[DEMO_PICTURE_ECARD.sku] = await services.designs.upsert(ecardAdmin, {
      name: DEMO_PICTURE_ECARD.name,
      sku: DEMO_PICTURE_ECARD.sku,
      productType: 'E-card',
      image: picture,
      isCustomizable: false,
      data: {},
    });
  }

  // Jobs over the last few days: waiting, downloaded, printed, reprinted, one held back.
  const now = deps.clock.now().getTime();
  const daysAgo = (days: number, hour: number) => new Date(Math.floor(now / 86_400_000) * 86_400_000 - days * 86_400_000 + hour * 3_600_000);
  const clock = seedClock(daysAgo(6, 9));
  // Checked like every job, so the demo shows what preflight says of its artwork.
  const jobs = printJobsService({ ...deps, clock }, { preflight: createPreflight(services.artwork), render: services.render, shipBy: shipByViews({ ...deps, clock }), shippedLines: (range) => shippedLinesIn(deps.db, range) });
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
      if (step === 'reprint') job = await jobs.change(staff, { id: job.id, isPDFDownloaded: false, isPrinted: false, isRePrinted: true, reprintReason: 'printDefect', reprintResponsible: 'shop' });
    }
    if (p.note) await services.generalData.upsert(staff, 'production-note', { id: undefined, field1: String(job.id), data: { note: p.note } });
    made.push(job);
  }
  const photoCard = designs['DEMO-CARD-PHOTO'];
  const photoOrder = photoCard ? await seedLowResolutionPhotoOrder(deps, services, photoCard, actors.demo.staff) : undefined;
  if (photoOrder) made.push(photoOrder.job);
  const inHouse = actors.demo ? await seedInHouseBatches(services, [designs['DEMO-MUG-01'], designs['DEMO-POSTER-01']], actors.demo) : [];
  made.push(...inHouse.flatMap((b) => b.jobs));
  return { designs: Object.values(designs), jobs: made, photoOrder, inHouse };
}

/**
 * A mug and a poster made in house from start to end, as the floor does it: a job of each design
 * (checked by preflight), a batch of each on its own sheet (the mugs n-up on a sublimation sheet,
 * the poster one up), its sheet PDF made, the batch marked printed, and every copy scanned packed.
 */
async function seedInHouseBatches(services: Services, mugAndPoster: Array<Design | undefined>, people: { admin: Actor; staff: Actor }) {
  // The printer marks the batch printed; the packer scans (one person's second scan would be a double read).
  const { admin: printer, staff } = people;
  const done: Array<{ batchId: number; sheet: string; sheets: number; jobs: PrintJob[] }> = [];
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'presswork-demo-sheet-'));
  try {
    for (const design of mugAndPoster) {
      if (!design) continue;
      const quantity = design.productType === 'Mug' ? 3 : 1;
      const job = await services.printJobs.create(staff, { designId: design.id, quantity });
      const batch = await services.batches.create(staff, { jobIds: [job.id] });
      const { result } = await services.batches.sheetPdf(staff, batch.id, path.join(dir, `batch-${batch.number}.pdf`));
      await services.batches.changeState(printer, batch.id, 'printed');
      for (let copy = 1; copy <= quantity; copy++) await services.scan.scan(staff, copyCode(job.id, copy));
      done.push({ batchId: batch.id, sheet: batch.sheet, sheets: result.sheets, jobs: [(await services.printJobs.find(staff, job.id))] });
    }
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
  return done;
}

/** The demo store's order whose customer sent a small photo for the Family Photo Card. */
export const LOW_RES_PHOTO_ORDER = { number: 1000, customer: { first: 'Rosa', last: 'Lindqvist' } } as const;

/**
 * The demo store's first order: a Family Photo Card whose "Photo" is a customer's small picture
 * on our own host. It comes in as a pulled store order (the inbox's ingest path) and its job is made
 * as order-to-artwork makes it, so preflight judges it as it would any order: the photo is too soft
 * for its box and the job is held for an operator.
 */
async function seedLowResolutionPhotoOrder(deps: Deps, services: Services, design: Design, staff: Actor): Promise<{ orderId: string; photoUrl: string; job: PrintJob }> {
  const siteId = design.siteId!;
  const base = (deps.config.publicUrl ?? `http://localhost:${deps.config.port}`).replace(/\/+$/, '');
  const file = await storeGeneratedFile(deps, services.store, { userId: null, siteId }, 'orders/customer-photo.jpg', 'image/jpeg', await photo(LOW_RES_PHOTO.width, LOW_RES_PHOTO.height, 80));
  const photoUrl = `${base}${file}`;
  const placed = new Date(deps.clock.now().getTime() - 2 * 3_600_000);
  const order = fakeOrder(LOW_RES_PHOTO_ORDER.number, { skus: [design.sku!], lineCount: 1, orderNumber: LOW_RES_PHOTO_ORDER.number, createdAt: placed, withCustomer: true, withAddress: true });
  const { first, last } = LOW_RES_PHOTO_ORDER.customer;
  const email = `${first}.${last}@example.com`.toLowerCase();
  Object.assign(order, { email, contact_email: email, customer: { ...order.customer!, first_name: first, last_name: last, email }, shipping_address: { ...order.shipping_address!, name: `${first} ${last}`, first_name: first, last_name: last } });
  const line = order.line_items[0];
  Object.assign(line, { quantity: 1, current_quantity: 1, fulfillable_quantity: 1, properties: [{ name: 'Photo', value: photoUrl }] });
  order.total_price = line.price;
  await services.inbox.receiveNow({
    source: SHOPIFY_SOURCE,
    eventId: `demo-seed:${order.id}`,
    deliveryId: null,
    siteId,
    topic: 'orders/paid',
    payload: order,
    status: 'received',
    receivedAt: isoNow(deps.clock),
  });
  const { jobs } = await services.orderActions.orderToArtwork(staff, order.id, siteId);
  if (!jobs[0]) throw new Error('The demo photo order made no print job');
  return { orderId: order.id, photoUrl, job: jobs[0] };
}
