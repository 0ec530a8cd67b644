import { useEffect, useId, useState, type ReactNode, type RefObject } from 'react';
import {
  Box,
  Button,
  Divider,
  FormControl,
  FormControlLabel,
  IconButton,
  InputAdornment,
  InputLabel,
  List,
  ListItemButton,
  ListItemIcon,
  ListItemText,
  MenuItem,
  Select,
  Slider,
  Switch,
  TextField,
  ToggleButton,
  ToggleButtonGroup,
  Tooltip,
  Typography,
} from '@mui/material';
import FormatAlignCenterIcon from '@mui/icons-material/FormatAlignCenter';
import FormatAlignLeftIcon from '@mui/icons-material/FormatAlignLeft';
import FormatAlignRightIcon from '@mui/icons-material/FormatAlignRight';
import FormatBoldIcon from '@mui/icons-material/FormatBold';
import ImageIcon from '@mui/icons-material/Image';
import LockIcon from '@mui/icons-material/Lock';
import LockOpenIcon from '@mui/icons-material/LockOpen';
import PersonIcon from '@mui/icons-material/Person';
import CropSquareIcon from '@mui/icons-material/CropSquare';
import TextFieldsIcon from '@mui/icons-material/TextFields';
import { canBeField, type Operation } from '../../../../common/design-doc/model';
import { formatSpec } from '../../../../common/design-doc/render';
import type { PpiThresholds } from '../../../../common/design-doc/resolution';
import { BLEED_RANGE_MM, BUNDLED_FONTS, type DesignDocument, type FieldBinding, type Layer } from '../../../../common/design-doc/types';
import { ImageResolution } from './ImageResolution';

export interface PropertiesPanelProps {
  doc: DesignDocument;
  pageIndex: number;
  selected: Layer | null;
  onSelect: (id: string | null) => void;
  apply: (op: Operation, coalesce?: string) => void;
  /** Ends the current typing step (undo then takes back one field's edit at a time). */
  commit: () => void;
  /** Picks and uploads an image, resolving to its address (null when cancelled). */
  pickImage: () => Promise<string | null>;
  textInputRef: RefObject<HTMLTextAreaElement | null>;
  /** The design's site's resolution rule (absent: the default one). */
  ppiThresholds?: PpiThresholds;
}

/** A number input that lets the user type freely and applies valid numbers as they come. */
function NumberField({
  label,
  value,
  onChange,
  onBlur,
  min,
  max,
  step = 1,
  unit,
  integer,
  clearable,
  placeholder,
  helperText,
}: {
  label: string;
  value: number | undefined;
  onChange: (value: number | undefined) => void;
  onBlur: () => void;
  min?: number;
  max?: number;
  step?: number;
  unit?: string;
  integer?: boolean;
  /** Emptying the field is a choice (onChange(undefined)), not a half-typed number. */
  clearable?: boolean;
  placeholder?: string;
  helperText?: ReactNode;
}) {
  const shown = value === undefined ? '' : String(Math.round(value * 100) / 100);
  const [text, setText] = useState(shown);
  const [focused, setFocused] = useState(false);
  useEffect(() => {
    if (!focused) setText(shown);
  }, [shown, focused]);
  return (
    <TextField
      label={label}
      size="small"
      type="number"
      value={focused ? text : shown}
      onFocus={() => setFocused(true)}
      onBlur={() => {
        setFocused(false);
        onBlur();
      }}
      onChange={(event) => {
        setText(event.target.value);
        if (event.target.value === '') {
          if (clearable) onChange(undefined);
          return;
        }
        let n = Number(event.target.value);
        if (!Number.isFinite(n)) return;
        if (integer) n = Math.round(n);
        if (min !== undefined && n < min) return;
        if (max !== undefined && n > max) return;
        onChange(n);
      }}
      slotProps={{
        htmlInput: { min, max, step, placeholder },
        inputLabel: placeholder ? { shrink: true } : undefined,
        input: unit ? { endAdornment: <InputAdornment position="end">{unit}</InputAdornment> } : undefined,
      }}
      helperText={helperText}
      fullWidth
    />
  );
}

function ColourField({ label, value, onChange, onBlur }: { label: string; value: string; onChange: (v: string) => void; onBlur: () => void }) {
  const hex = /^#[0-9a-fA-F]{6}$/.test(value) ? value : /^#[0-9a-fA-F]{3}$/.test(value) ? `#${[...value.slice(1)].map((c) => c + c).join('')}` : '#000000';
  return (
    <TextField
      label={label}
      size="small"
      type="color"
      value={hex}
      onChange={(event) => onChange(event.target.value)}
      onBlur={onBlur}
      fullWidth
      slotProps={{ inputLabel: { shrink: true } }}
      sx={{ '& input': { height: 24, px: '8px', pt: '22px', pb: '4px', cursor: 'pointer' } }}
    />
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Box component="section" aria-label={title} sx={{ px: 2, py: 1.5, display: 'flex', flexDirection: 'column', gap: 1.5 }}>
      <Typography variant="overline" sx={{ lineHeight: 1.5, fontWeight: 700, color: 'text.secondary' }}>
        {title}
      </Typography>
      {children}
    </Box>
  );
}

const Row = ({ children }: { children: ReactNode }) => <Box sx={{ display: 'flex', gap: 1 }}>{children}</Box>;

const LAYER_ICON = { text: TextFieldsIcon, image: ImageIcon, rect: CropSquareIcon } as const;

function LayerList({ doc, pageIndex, selectedId, onSelect, apply }: Pick<PropertiesPanelProps, 'doc' | 'pageIndex' | 'onSelect' | 'apply'> & { selectedId: string | null }) {
  const layers = [...(doc.pages[pageIndex]?.layers ?? [])].reverse();
  if (!layers.length) {
    return (
      <Typography variant="body2" color="text.secondary">
        No layers on this page yet: add text, an image or a rectangle.
      </Typography>
    );
  }
  return (
    <List dense disablePadding aria-label="Layers" sx={{ border: 1, borderColor: 'divider', borderRadius: 1, maxHeight: 180, overflowY: 'auto' }}>
      {layers.map((layer) => {
        const Icon = LAYER_ICON[layer.type];
        return (
          <ListItemButton key={layer.id} selected={layer.id === selectedId} onClick={() => onSelect(layer.id)} sx={{ pr: 0.5 }}>
            <ListItemIcon sx={{ minWidth: 30 }}>
              <Icon fontSize="small" />
            </ListItemIcon>
            <ListItemText
              primary={layer.type === 'text' ? layer.text.split('\n')[0] || layer.name : layer.name}
              slotProps={{ primary: { noWrap: true, variant: 'body2' } }}
            />
            {layer.field ? (
              <Tooltip title={`Personalisation field: ${layer.field.property}`}>
                <PersonIcon fontSize="small" color="secondary" aria-label="Personalisation field" />
              </Tooltip>
            ) : null}
            <Tooltip title={layer.locked ? 'Unlock' : 'Lock'}>
              <IconButton
                size="small"
                aria-label={`${layer.locked ? 'Unlock' : 'Lock'} ${layer.name}`}
                onClick={(event) => {
                  event.stopPropagation();
                  apply({ type: 'update-layer', page: pageIndex, id: layer.id, patch: { locked: layer.locked ? undefined : true } });
                }}
              >
                {layer.locked ? <LockIcon fontSize="small" /> : <LockOpenIcon fontSize="small" sx={{ opacity: 0.4 }} />}
              </IconButton>
            </Tooltip>
          </ListItemButton>
        );
      })}
    </List>
  );
}

function FieldSection({ layer, pageIndex, apply, commit }: { layer: Layer; pageIndex: number; apply: PropertiesPanelProps['apply']; commit: () => void }) {
  const field = layer.field;
  const key = (name: string) => `field:${layer.id}:${name}`;
  const setField = (patch: Partial<FieldBinding>, name: string) => {
    apply({ type: 'mark-field', page: pageIndex, id: layer.id, binding: patch }, key(name));
    // A text field's layer text follows its sample, so the fallback is the same words.
    if (layer.type === 'text' && patch.sample !== undefined) {
      apply({ type: 'update-layer', page: pageIndex, id: layer.id, patch: { text: patch.sample } }, key(name));
    }
  };
  return (
    <Section title="Personalisation field">
      <FormControlLabel
        control={
          <Switch
            checked={Boolean(field)}
            onChange={(event) =>
              apply(event.target.checked ? { type: 'mark-field', page: pageIndex, id: layer.id } : { type: 'unmark-field', page: pageIndex, id: layer.id })
            }
          />
        }
        label={layer.type === 'text' ? 'Text comes from the order' : 'Picture comes from the order'}
      />
      {field ? (
        <>
          <TextField
            label="Line-item property"
            size="small"
            value={field.property}
            onChange={(event) => setField({ property: event.target.value }, 'property')}
            onBlur={commit}
            error={!field.property.trim()}
            helperText={field.property.trim() ? 'The order line item property, e.g. "Recipient name"' : 'A property name is required'}
            fullWidth
          />
          {layer.type === 'text' ? (
            <>
              <TextField
                label="Sample value"
                size="small"
                value={field.sample}
                onChange={(event) => setField({ sample: event.target.value }, 'sample')}
                onBlur={commit}
                helperText={
                  field.maxLength !== undefined && Array.from(field.sample).length > field.maxLength
                    ? `Longer than ${field.maxLength} characters: it will be cut`
                    : 'Shown here, and used when an order lacks the property'
                }
                multiline
                maxRows={4}
                fullWidth
              />
              <Row>
                <NumberField
                  label="Max length"
                  value={field.maxLength}
                  onChange={(v) => setField({ maxLength: v }, 'maxLength')}
                  onBlur={commit}
                  min={1}
                  max={5000}
                  integer
                />
                <FormControl size="small" fullWidth>
                  <InputLabel id={`fit-${layer.id}`}>Too long</InputLabel>
                  <Select
                    labelId={`fit-${layer.id}`}
                    label="Too long"
                    value={field.fit}
                    onChange={(event) => setField({ fit: event.target.value as FieldBinding['fit'] }, 'fit')}
                  >
                    <MenuItem value="shrink">Shrink to fit</MenuItem>
                    <MenuItem value="clip">Clip</MenuItem>
                  </Select>
                </FormControl>
              </Row>
            </>
          ) : (
            <Typography variant="body2" color="text.secondary">
              The layer&apos;s picture is the sample; it is used when an order lacks the property. Replace the image to change it.
            </Typography>
          )}
        </>
      ) : null}
    </Section>
  );
}

/** The selected layer's properties (or the page's when nothing is selected), the layer list and the personalisation field. */
export function PropertiesPanel({ doc, pageIndex, selected, onSelect, apply, commit, pickImage, textInputRef, ppiThresholds }: PropertiesPanelProps) {
  const page = doc.pages[pageIndex];
  const textId = useId();
  const update = (patch: Parameters<typeof patchOp>[1], name: string) => selected && apply(patchOp(selected, patch, pageIndex), `prop:${selected.id}:${name}`);

  return (
    <Box
      component="aside"
      aria-label="Properties"
      sx={{ width: 300, flex: 'none', overflowY: 'auto', borderLeft: 1, borderColor: 'divider', bgcolor: 'background.paper' }}
    >
      <Section title={`Layers — ${page?.name ?? ''}`}>
        <LayerList doc={doc} pageIndex={pageIndex} selectedId={selected?.id ?? null} onSelect={onSelect} apply={apply} />
      </Section>
      <Divider />
      {!selected ? (
        <Section title="Page">
          <ColourField
            label="Background colour"
            value={page?.background ?? '#ffffff'}
            onChange={(color) => apply({ type: 'set-background', page: pageIndex, color }, `bg:${pageIndex}`)}
            onBlur={commit}
          />
          <Typography variant="body2" color="text.secondary">
            Select a layer to change it. Red line: trim; dashed blue: safe area (keep text inside); shaded: bleed, cut off.
          </Typography>
        </Section>
      ) : null}
      {!selected ? (
        <Section title="Document">
          <BleedField doc={doc} apply={apply} commit={commit} />
        </Section>
      ) : (
        <>
          {selected.type === 'text' ? (
            <Section title="Text">
              {selected.field ? null : (
                <TextField
                  id={textId}
                  inputRef={textInputRef}
                  label="Text"
                  size="small"
                  value={selected.text}
                  onChange={(event) => update({ text: event.target.value }, 'text')}
                  onBlur={commit}
                  multiline
                  minRows={2}
                  maxRows={6}
                  fullWidth
                />
              )}
              <FormControl size="small" fullWidth>
                <InputLabel id={`font-${selected.id}`}>Font</InputLabel>
                <Select
                  labelId={`font-${selected.id}`}
                  label="Font"
                  value={selected.fontFamily}
                  onChange={(event) => update({ fontFamily: event.target.value }, 'font')}
                >
                  {BUNDLED_FONTS.map((font) => (
                    <MenuItem key={font} value={font} sx={{ fontFamily: `"${font}"` }}>
                      {font}
                    </MenuItem>
                  ))}
                </Select>
              </FormControl>
              <Row>
                <NumberField label="Size" unit="pt" value={selected.fontSize} min={1} max={1000} onChange={(v) => v !== undefined && update({ fontSize: v }, 'fontSize')} onBlur={commit} />
                <NumberField
                  label="Line height"
                  value={selected.lineHeight}
                  min={0.5}
                  max={5}
                  step={0.1}
                  onChange={(v) => v !== undefined && update({ lineHeight: v }, 'lineHeight')}
                  onBlur={commit}
                />
              </Row>
              <Row>
                <ColourField label="Colour" value={selected.color} onChange={(color) => update({ color }, 'color')} onBlur={commit} />
                <ToggleButton
                  value="bold"
                  size="small"
                  aria-label="Bold"
                  selected={selected.fontWeight === 700}
                  onChange={() => update({ fontWeight: selected.fontWeight === 700 ? 400 : 700 }, 'bold')}
                >
                  <FormatBoldIcon fontSize="small" />
                </ToggleButton>
              </Row>
              <ToggleButtonGroup
                exclusive
                size="small"
                aria-label="Alignment"
                value={selected.align}
                onChange={(_event, align: 'left' | 'center' | 'right' | null) => align && update({ align }, 'align')}
              >
                <ToggleButton value="left" aria-label="Align left">
                  <FormatAlignLeftIcon fontSize="small" />
                </ToggleButton>
                <ToggleButton value="center" aria-label="Align centre">
                  <FormatAlignCenterIcon fontSize="small" />
                </ToggleButton>
                <ToggleButton value="right" aria-label="Align right">
                  <FormatAlignRightIcon fontSize="small" />
                </ToggleButton>
              </ToggleButtonGroup>
            </Section>
          ) : null}
          {selected.type === 'image' ? (
            <Section title="Image">
              <FormControl size="small" fullWidth>
                <InputLabel id={`imgfit-${selected.id}`}>Fit</InputLabel>
                <Select
                  labelId={`imgfit-${selected.id}`}
                  label="Fit"
                  value={selected.fit}
                  onChange={(event) => update({ fit: event.target.value as 'cover' | 'contain' }, 'fit')}
                >
                  <MenuItem value="cover">Cover (fill the box, crop)</MenuItem>
                  <MenuItem value="contain">Contain (whole picture)</MenuItem>
                </Select>
              </FormControl>
              <ImageResolution layer={selected} page={{ index: pageIndex, name: page?.name ?? '' }} thresholds={ppiThresholds} />
              <Button
                variant="outlined"
                size="small"
                onClick={async () => {
                  const src = await pickImage();
                  if (!src) return;
                  apply(patchOp(selected, { src }, pageIndex));
                  if (selected.field) apply({ type: 'mark-field', page: pageIndex, id: selected.id, binding: { sample: src } });
                }}
              >
                Replace image
              </Button>
            </Section>
          ) : null}
          {selected.type === 'rect' ? (
            <Section title="Rectangle">
              <Row>
                <ColourField label="Fill" value={selected.fill} onChange={(fill) => update({ fill }, 'fill')} onBlur={commit} />
                <ColourField label="Stroke" value={selected.stroke ?? '#000000'} onChange={(stroke) => update({ stroke }, 'stroke')} onBlur={commit} />
              </Row>
              <Row>
                <NumberField
                  label="Stroke width"
                  unit="mm"
                  value={selected.strokeWidth ?? 0}
                  min={0}
                  max={100}
                  step={0.1}
                  onChange={(v) => update({ strokeWidth: v || undefined, stroke: v ? (selected.stroke ?? '#000000') : selected.stroke }, 'strokeWidth')}
                  onBlur={commit}
                />
                <NumberField label="Radius" unit="mm" value={selected.radius ?? 0} min={0} max={1000} step={0.5} onChange={(v) => update({ radius: v ?? 0 }, 'radius')} onBlur={commit} />
              </Row>
            </Section>
          ) : null}
          <Divider />
          <Section title="Position">
            <Row>
              <NumberField label="X" unit="mm" value={selected.x} step={0.5} onChange={(v) => v !== undefined && update({ x: v }, 'x')} onBlur={commit} />
              <NumberField label="Y" unit="mm" value={selected.y} step={0.5} onChange={(v) => v !== undefined && update({ y: v }, 'y')} onBlur={commit} />
            </Row>
            <Row>
              <NumberField label="Width" unit="mm" value={selected.width} min={1} step={0.5} onChange={(v) => v !== undefined && update({ width: v }, 'width')} onBlur={commit} />
              <NumberField label="Height" unit="mm" value={selected.height} min={1} step={0.5} onChange={(v) => v !== undefined && update({ height: v }, 'height')} onBlur={commit} />
            </Row>
            <NumberField
              label="Rotation"
              unit="°"
              value={selected.rotation}
              min={-360}
              max={360}
              onChange={(v) => v !== undefined && apply({ type: 'rotate-layer', page: pageIndex, id: selected.id, rotation: v }, `prop:${selected.id}:rotation`)}
              onBlur={commit}
            />
            <Box>
              <Typography variant="caption" color="text.secondary" id={`opacity-${selected.id}`}>
                Opacity {Math.round(selected.opacity * 100)} %
              </Typography>
              <Slider
                size="small"
                min={0}
                max={1}
                step={0.01}
                value={selected.opacity}
                aria-labelledby={`opacity-${selected.id}`}
                onChange={(_event, value) => update({ opacity: value as number }, 'opacity')}
                onChangeCommitted={commit}
              />
            </Box>
          </Section>
          {canBeField(selected) ? (
            <>
              <Divider />
              <FieldSection layer={selected} pageIndex={pageIndex} apply={apply} commit={commit} />
            </>
          ) : null}
        </>
      )}
    </Box>
  );
}

/** The design's bleed (every page): empty is its format's; the canvas, thumbnails and print renders follow it. */
function BleedField({ doc, apply, commit }: Pick<PropertiesPanelProps, 'doc' | 'apply' | 'commit'>) {
  // The format's own bleed (what an empty field means), not this design's.
  const formatBleed = formatSpec({ format: doc.format }).bleed;
  return (
    <NumberField
      label="Bleed (mm)"
      unit="mm"
      value={doc.bleed}
      min={BLEED_RANGE_MM.min}
      max={BLEED_RANGE_MM.max}
      step={0.5}
      clearable
      placeholder={String(formatBleed)}
      helperText={
        doc.bleed === undefined
          ? `Empty: the format's ${formatBleed} mm`
          : `Artwork reaches ${formatSpec(doc).bleed} mm past the trim; empty for the format's ${formatBleed} mm`
      }
      onChange={(bleed) => apply({ type: 'set-bleed', bleed }, 'bleed')}
      onBlur={commit}
    />
  );
}

function patchOp(layer: Layer, patch: Extract<Operation, { type: 'update-layer' }>['patch'], page: number): Operation {
  return { type: 'update-layer', page, id: layer.id, patch };
}
