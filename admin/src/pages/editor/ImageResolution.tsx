import { useEffect, useState } from 'react';
import { Alert, Typography } from '@mui/material';
import { DEFAULT_PPI_THRESHOLDS, effectivePpi, resolutionFinding, type PpiThresholds } from '../../../../common/design-doc/resolution';
import type { ImageLayer } from '../../../../common/design-doc/types';
import { loadImage } from './renderPages';

interface PixelSize {
  src: string;
  pixelWidth: number;
  pixelHeight: number;
}

/** The photo's pixel size, from the same loaded image the canvas draws (null until it has loaded, or if it cannot). */
function usePixelSize(src: string): PixelSize | null {
  const [size, setSize] = useState<PixelSize | null>(null);
  useEffect(() => {
    let current = true;
    loadImage(src).then(
      (img) => current && setSize({ src, pixelWidth: img.naturalWidth, pixelHeight: img.naturalHeight }),
      // The canvas already says when an image cannot be loaded; here there is just nothing to measure.
      () => current && setSize(null),
    );
    return () => {
      current = false;
    };
  }, [src]);
  return size?.src === src ? size : null;
}

/**
 * The selected photo's resolution at its placed size, updated as it is scaled: the same finding
 * preflight makes when the job is created (common/design-doc/resolution.ts), in its colour.
 */
export function ImageResolution({
  layer,
  page,
  thresholds = DEFAULT_PPI_THRESHOLDS,
}: {
  layer: ImageLayer;
  page: { index: number; name: string };
  thresholds?: PpiThresholds;
}) {
  const size = usePixelSize(layer.src);
  if (!size) return null;
  const ppi = effectivePpi(size, { widthMm: layer.width, heightMm: layer.height }, layer.fit);
  const finding = resolutionFinding(ppi, thresholds, page, layer.name);
  if (!finding) {
    return (
      <Typography variant="body2" color="success.main" role="status">
        {Math.round(ppi)} ppi at its printed size: sharp
      </Typography>
    );
  }
  return (
    <Alert severity={finding.severity} role="status" sx={{ py: 0 }}>
      {finding.message}
    </Alert>
  );
}
