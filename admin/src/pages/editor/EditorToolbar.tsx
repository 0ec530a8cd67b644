import type { ReactNode } from 'react';
import { Box, Button, CircularProgress, Divider, IconButton, Tooltip, Typography } from '@mui/material';
import AddPhotoAlternateIcon from '@mui/icons-material/AddPhotoAlternate';
import CropSquareIcon from '@mui/icons-material/CropSquare';
import DeleteIcon from '@mui/icons-material/Delete';
import FlipToBackIcon from '@mui/icons-material/FlipToBack';
import FlipToFrontIcon from '@mui/icons-material/FlipToFront';
import FormatColorFillIcon from '@mui/icons-material/FormatColorFill';
import KeyboardArrowDownIcon from '@mui/icons-material/KeyboardArrowDown';
import KeyboardArrowUpIcon from '@mui/icons-material/KeyboardArrowUp';
import RedoIcon from '@mui/icons-material/Redo';
import SaveIcon from '@mui/icons-material/Save';
import TextFieldsIcon from '@mui/icons-material/TextFields';
import UndoIcon from '@mui/icons-material/Undo';
import ZoomInIcon from '@mui/icons-material/ZoomIn';
import ZoomOutIcon from '@mui/icons-material/ZoomOut';
import type { ReorderTarget } from '../../../../common/design-doc/model';

export interface EditorToolbarProps {
  title: string;
  onAddText: () => void;
  onAddImage: () => void;
  onAddRect: () => void;
  background: string;
  onBackground: (color: string) => void;
  hasSelection: boolean;
  onDelete: () => void;
  onReorder: (to: ReorderTarget) => void;
  canUndo: boolean;
  canRedo: boolean;
  onUndo: () => void;
  onRedo: () => void;
  zoom: number;
  onZoom: (zoom: number) => void;
  busy: boolean;
  /** The save (or, in the sample, download) action at the end of the bar. */
  action: ReactNode;
}

export const ZOOM_STEPS = [0.25, 0.5, 0.75, 1, 1.25, 1.5, 2, 3, 4];

function Tool({ title, onClick, disabled, children }: { title: string; onClick: () => void; disabled?: boolean; children: ReactNode }) {
  return (
    <Tooltip title={title}>
      <span>
        <IconButton aria-label={title} onClick={onClick} disabled={disabled} size="small">
          {children}
        </IconButton>
      </span>
    </Tooltip>
  );
}

export function EditorToolbar(props: EditorToolbarProps) {
  const { zoom, onZoom } = props;
  const zoomOut = ZOOM_STEPS.filter((z) => z < zoom - 1e-9).pop();
  const zoomIn = ZOOM_STEPS.find((z) => z > zoom + 1e-9);
  const sel = !props.hasSelection || props.busy;
  return (
    <Box
      role="toolbar"
      aria-label="Editor tools"
      sx={{ display: 'flex', alignItems: 'center', gap: 0.5, px: 1.5, py: 0.5, borderBottom: 1, borderColor: 'divider', bgcolor: 'background.paper', flexWrap: 'wrap' }}
    >
      <Typography variant="subtitle1" component="h1" noWrap sx={{ fontWeight: 700, mr: 1, maxWidth: 220 }} title={props.title}>
        {props.title}
      </Typography>
      <Button size="small" startIcon={<TextFieldsIcon />} onClick={props.onAddText} disabled={props.busy}>
        Text
      </Button>
      <Button size="small" startIcon={<AddPhotoAlternateIcon />} onClick={props.onAddImage} disabled={props.busy}>
        Image
      </Button>
      <Button size="small" startIcon={<CropSquareIcon />} onClick={props.onAddRect} disabled={props.busy}>
        Rectangle
      </Button>
      <Tooltip title="Page background colour">
        <Box component="label" sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5, px: 0.5, cursor: 'pointer' }}>
          <FormatColorFillIcon fontSize="small" color="action" />
          <input
            type="color"
            aria-label="Background colour"
            value={/^#[0-9a-fA-F]{6}$/.test(props.background) ? props.background : '#ffffff'}
            onChange={(event) => props.onBackground(event.target.value)}
            style={{ width: 28, height: 24, border: 0, padding: 0, background: 'none', cursor: 'pointer' }}
          />
        </Box>
      </Tooltip>
      <Divider orientation="vertical" flexItem sx={{ mx: 0.5 }} />
      <Tool title="Delete layer (Del)" onClick={props.onDelete} disabled={sel}>
        <DeleteIcon fontSize="small" />
      </Tool>
      <Tool title="Bring forward" onClick={() => props.onReorder('up')} disabled={sel}>
        <KeyboardArrowUpIcon fontSize="small" />
      </Tool>
      <Tool title="Send backward" onClick={() => props.onReorder('down')} disabled={sel}>
        <KeyboardArrowDownIcon fontSize="small" />
      </Tool>
      <Tool title="Bring to front" onClick={() => props.onReorder('top')} disabled={sel}>
        <FlipToFrontIcon fontSize="small" />
      </Tool>
      <Tool title="Send to back" onClick={() => props.onReorder('bottom')} disabled={sel}>
        <FlipToBackIcon fontSize="small" />
      </Tool>
      <Divider orientation="vertical" flexItem sx={{ mx: 0.5 }} />
      <Tool title="Undo (Ctrl+Z)" onClick={props.onUndo} disabled={!props.canUndo || props.busy}>
        <UndoIcon fontSize="small" />
      </Tool>
      <Tool title="Redo (Ctrl+Shift+Z)" onClick={props.onRedo} disabled={!props.canRedo || props.busy}>
        <RedoIcon fontSize="small" />
      </Tool>
      <Divider orientation="vertical" flexItem sx={{ mx: 0.5 }} />
      <Tool title="Zoom out" onClick={() => zoomOut !== undefined && onZoom(zoomOut)} disabled={zoomOut === undefined}>
        <ZoomOutIcon fontSize="small" />
      </Tool>
      <Tooltip title="Fit the page">
        <Button size="small" onClick={() => onZoom(1)} sx={{ minWidth: 56 }} aria-label="Zoom to fit">
          {zoom === 1 ? 'Fit' : `${Math.round(zoom * 100)}%`}
        </Button>
      </Tooltip>
      <Tool title="Zoom in" onClick={() => zoomIn !== undefined && onZoom(zoomIn)} disabled={zoomIn === undefined}>
        <ZoomInIcon fontSize="small" />
      </Tool>
      <Box sx={{ flex: 1 }} />
      {props.action}
    </Box>
  );
}

export function SaveButton({ onSave, saving }: { onSave: () => void; saving: boolean }) {
  return (
    <Button
      variant="contained"
      size="small"
      onClick={onSave}
      disabled={saving}
      startIcon={saving ? <CircularProgress size={16} color="inherit" /> : <SaveIcon />}
    >
      {saving ? 'Saving…' : 'Save'}
    </Button>
  );
}
