import { Box, Card, CardActionArea, CardContent, Typography } from '@mui/material';
import ImageIcon from '@mui/icons-material/Image';
import { Link } from 'react-router-dom';
import type { Design } from '../../../../common/api/printProduction';

export function DesignCard({ design }: { design: Design }) {
  return (
    <Card sx={{ height: '100%' }} data-testid="design-card">
      <CardActionArea component={Link} to={`/design/${design.id}`} sx={{ height: '100%', display: 'flex', flexDirection: 'column', alignItems: 'stretch' }}>
        {/* A fixed 4:5 frame whatever the artwork's shape, so the rows of the grid line up. */}
        <Box sx={{ position: 'relative', aspectRatio: '4 / 5', overflow: 'hidden', bgcolor: 'grey.100', display: 'flex', alignItems: 'center', justifyContent: 'center' }}>
          {design.image ? (
            <Box
              component="img"
              src={design.image}
              alt={design.name}
              loading="lazy"
              sx={{ position: 'absolute', inset: 0, width: '100%', height: '100%', objectFit: 'contain', p: 1, boxSizing: 'border-box' }}
            />
          ) : (
            <ImageIcon sx={{ fontSize: 56, color: 'grey.400' }} aria-label="No image" />
          )}
        </Box>
        <CardContent sx={{ flex: 1 }}>
          <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600, lineHeight: 1.3, wordBreak: 'break-word' }}>
            {design.name}
          </Typography>
          <Typography variant="body2" color="text.secondary">
            {design.sku ? `SKU: ${design.sku}` : 'No SKU'}
          </Typography>
        </CardContent>
      </CardActionArea>
    </Card>
  );
}
