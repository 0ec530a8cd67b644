import { useEffect, useRef } from 'react';
import { Box, ButtonBase, Typography } from '@mui/material';
import { formatSpec, pagePixelSize } from '../../../../common/design-doc/render';
import type { DesignDocument } from '../../../../common/design-doc/types';
import { renderPageCanvas } from './renderPages';

const THUMB_WIDTH = 88;

function Thumbnail({ doc, index }: { doc: DesignDocument; index: number }) {
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const page = doc.pages[index];
  const latest = useRef(doc);
  latest.current = doc;
  const spec = formatSpec(doc);
  const dpi = (THUMB_WIDTH / (spec.width + 2 * spec.bleed)) * 25.4 * (window.devicePixelRatio || 1);
  const size = pagePixelSize(doc, dpi);

  useEffect(() => {
    let cancelled = false;
    // Thumbnails follow the page a moment later, so dragging stays smooth.
    const timer = window.setTimeout(() => {
      renderPageCanvas(latest.current, index, dpi).then(
        (rendered) => {
          const canvas = canvasRef.current;
          const ctx = canvas?.getContext('2d');
          if (cancelled || !rendered || !canvas || !ctx) return;
          canvas.width = rendered.canvas.width;
          canvas.height = rendered.canvas.height;
          ctx.drawImage(rendered.canvas, 0, 0);
        },
        () => undefined,
      );
    }, 250);
    return () => {
      cancelled = true;
      window.clearTimeout(timer);
    };
  }, [page, index, dpi, doc.bleed]);

  return (
    <canvas
      ref={canvasRef}
      width={size.width}
      height={size.height}
      style={{ width: THUMB_WIDTH, height: (THUMB_WIDTH * size.height) / size.width, display: 'block', background: page?.background ?? '#fff' }}
    />
  );
}

/** The pages of the design (Card: Front, Inside left, Inside right, Back) as thumbnails to switch between. */
export function PageThumbnails({ doc, pageIndex, onSelect }: { doc: DesignDocument; pageIndex: number; onSelect: (index: number) => void }) {
  return (
    <Box
      component="nav"
      aria-label="Pages"
      role="tablist"
      aria-orientation="vertical"
      sx={{ width: THUMB_WIDTH + 32, flex: 'none', overflowY: 'auto', borderRight: 1, borderColor: 'divider', bgcolor: 'background.paper', py: 1 }}
    >
      {doc.pages.map((page, index) => (
        <ButtonBase
          key={page.id}
          role="tab"
          aria-selected={index === pageIndex}
          aria-label={page.name}
          onClick={() => onSelect(index)}
          sx={{
            display: 'flex',
            flexDirection: 'column',
            gap: 0.5,
            mx: 'auto',
            my: 0.5,
            p: 0.75,
            borderRadius: 1,
            outline: index === pageIndex ? '2px solid' : '1px solid transparent',
            outlineColor: index === pageIndex ? 'primary.main' : 'transparent',
            '&:hover': { bgcolor: 'action.hover' },
          }}
        >
          <Box sx={{ boxShadow: 1 }}>
            <Thumbnail doc={doc} index={index} />
          </Box>
          <Typography variant="caption" sx={{ fontWeight: index === pageIndex ? 700 : 500 }}>
            {page.name}
          </Typography>
        </ButtonBase>
      ))}
    </Box>
  );
}
