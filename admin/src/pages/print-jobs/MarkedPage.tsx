import { Box, Typography } from '@mui/material';
import type { PreflightFinding } from '../../../../common/api/preflight';
import { pageImageOf, type PrintJobWithPreflight } from '../../providers/printProduction';

const percent = (fraction: number) => `${Math.min(100, Math.max(0, fraction * 100))}%`;

/**
 * The page a finding is about, with the spot it points at outlined: the job's artwork page, or its
 * preview when there is none. The outline is placed in fractions of the picture, so it follows
 * whatever size the picture is shown at.
 */
export function MarkedPage({ job, finding, width = 96 }: { job: PrintJobWithPreflight; finding: PreflightFinding | undefined; width?: number }) {
  const src = pageImageOf(job, finding?.page);
  const page = finding?.page ?? null;
  if (!src) {
    return (
      <Box sx={{ width, height: width, bgcolor: 'grey.100', borderRadius: 0.5, display: 'grid', placeItems: 'center', flex: 'none' }}>
        <Typography variant="caption" color="text.secondary">
          No picture
        </Typography>
      </Box>
    );
  }
  const area = finding?.area;
  return (
    // A hairline edge: a white page on a white card still reads as a page.
    <Box sx={{ position: 'relative', width, flex: 'none', lineHeight: 0, bgcolor: 'grey.100', border: 1, borderColor: 'divider', borderRadius: 0.5, overflow: 'hidden' }}>
      <Box
        component="img"
        src={src}
        alt={page ? `Page ${page} of ${job.productName}` : `Preview of ${job.productName}`}
        loading="lazy"
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
