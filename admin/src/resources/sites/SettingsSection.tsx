import type { ReactNode } from 'react';
import { Accordion, AccordionDetails, AccordionSummary, Box, Typography } from '@mui/material';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';

/**
 * A section of the site form: its title and what it is for always shown, its inputs drawn only
 * while it is open, as the Connections groups. The form stays short, and a keystroke anywhere in it
 * redraws only the open sections (each one watches the whole settings.env). `problem`, the sentence
 * the server would refuse a save with, is shown whether the section is open or not.
 */
export function SettingsSection({ title, description, problem, children }: { title: string; description: ReactNode; problem?: ReactNode; children: ReactNode }) {
  return (
    <Box component="section" aria-label={title} sx={{ mt: 2, width: '100%', maxWidth: 720 }}>
      <Accordion disableGutters slotProps={{ transition: { unmountOnExit: true } }}>
        <AccordionSummary expandIcon={<ExpandMoreIcon />}>
          <Box component="span" sx={{ display: 'block' }}>
            <Typography variant="subtitle1" component="span" sx={{ display: 'block', fontWeight: 600 }}>
              {title}
            </Typography>
            <Typography variant="body2" component="span" color="text.secondary" sx={{ display: 'block' }}>
              {description}
            </Typography>
          </Box>
        </AccordionSummary>
        <AccordionDetails>{children}</AccordionDetails>
      </Accordion>
      {problem}
    </Box>
  );
}
