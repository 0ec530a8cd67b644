// The declared content type of an upload must match what its first bytes say it is.
export const ALLOWED_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/gif', 'application/pdf', 'text/csv', 'application/json'] as const;
export type AllowedType = (typeof ALLOWED_TYPES)[number];

const MAGIC: Partial<Record<AllowedType, (b: Buffer) => boolean>> = {
  'image/png': (b) => b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])),
  'image/jpeg': (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff,
  'image/gif': (b) => b.subarray(0, 4).toString('latin1') === 'GIF8',
  'image/webp': (b) => b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP',
  'application/pdf': (b) => b.subarray(0, 5).toString('latin1') === '%PDF-',
};

export function matchesType(type: AllowedType, head: Buffer): boolean {
  const check = MAGIC[type];
  if (check) return check(head);
  // Text types: no NUL bytes in the head.
  return !head.includes(0);
}
