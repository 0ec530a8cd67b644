import { useState } from 'react';
import { Box, Typography } from '@mui/material';
import type { PreflightArea } from '../../../../common/api/preflight';
import { artworkFit, printSizeOf } from '../../../../common/design-doc/printSize';
import type { PreflightFinding } from '../../../../common/api/preflight';
import { pageImageOf } from '../../providers/printProduction';
import type { PrintJob } from '../../../../common/api/printProduction';

const percent = (fraction: number) => `${Math.min(100, Math.max(0, fraction * 100))}%`;

/**
 * Findings point in fractions of the trim box; a page picture that carries the bleed is larger than
 * the trim by the bleed on every side, so the outline moves in by it.
 */
export function areaOnPicture(area: PreflightArea, picture: { width: number; height: number } | null, productType: string | null): PreflightArea {
  if (!picture) return area;
  const size = printSizeOf(productType);
  if (artworkFit(picture.width, picture.height, size) !== 'bleed') return area;
  const w = size.trimWidthMm + 2 * size.bleedMm;
  const h = size.trimHeightMm + 2 * size.bleedMm;
  return {
    x: (size.bleedMm + area.x * size.trimWidthMm) / w,
    y: (size.bleedMm + area.y * size.trimHeightMm) / h,
    width: (area.width * size.trimWidthMm) / w,
    height: (area.height * size.trimHeightMm) / h,
  };
}

/**
 * The page a finding is about, with the spot it points at outlined: the job's artwork page, or its
 * preview when there is none. The outline is placed in fractions of the picture, so it follows
 * whatever size the picture is shown at.
 */
export function MarkedPage({ job, finding, width = 96 }: { job: PrintJob; finding: PreflightFinding | undefined; width?: number }) {
  const src = pageImageOf(job, finding?.page);
  const page = finding?.page ?? null;
  const [picture, setPicture] = useState<{ width: number; height: number } | null>(null);
  if (!src) {
    return (
      <Box sx={{ width, height: width, bgcolor: 'grey.100', borderRadius: 0.5, display: 'grid', placeItems: 'center', flex: 'none' }}>
        <Typography variant="caption" color="text.secondary">
          No picture
        </Typography>
      </Box>
    );
  }
  const area = finding?.area ? areaOnPicture(finding.area, picture, job.productType) : undefined;
  return (
    // A hairline edge: a white page on a white card still reads as a page.
    <Box sx={{ position: 'relative', width, flex: 'none', lineHeight: 0, bgcolor: 'grey.100', border: 1, borderColor: 'divider', borderRadius: 0.5, overflow: 'hidden' }}>
      <Box
        component="img"
        src={src}
        alt={page ? `Page ${page} of ${job.productName}` : `Preview of ${job.productName}`}
        loading="lazy"
        onLoad={(e) => setPicture({ width: e.currentTarget.naturalWidth, height: e.currentTarget.naturalHeight })}
        sx={{ width: '100%', height: 'auto', display: 'block' }}
      />
      {area ? (
        <Box
          data-testid="finding-area"
          aria-hidden
          sx={{
            position: 'absolute',
            left: percent(area.x),
            top: percent(area.y),
            width: percent(area.width),
            height: percent(area.height),
            border: 2,
            borderColor: 'error.main',
            // A white edge keeps the outline visible on dark and red artwork alike.
            boxShadow: '0 0 0 1px #fff, inset 0 0 0 1px #fff',
            borderRadius: 0.5,
            pointerEvents: 'none',
          }}
        />
      ) : null}
    </Box>
  );
}
