// The header search: finds orders, jobs and designs (and, for admins, sites and users) as the user
// types, grouped by kind. ↑ ↓ move through the results, Enter opens one, Esc closes, and `/`
// focuses the box from anywhere but another input. On a phone the box is an icon that opens it
// across the header.
import { useCallback, useEffect, useId, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { Box, ClickAwayListener, IconButton, InputBase, List, ListItemButton, ListItemText, ListSubheader, Paper, Popper, Tooltip, Typography } from '@mui/material';
import { alpha } from '@mui/material/styles';
import CloseIcon from '@mui/icons-material/Close';
import SearchIcon from '@mui/icons-material/Search';
import { SEARCH_KINDS, isSearchable, type SearchHit, type SearchKind, type SearchResults } from '../../../common/api/search';
import { api } from '../providers/api';
import { errorMessage } from '../lib/format';

/** Wait this long after the last key before asking (one call per pause, not per key). */
export const SEARCH_DEBOUNCE_MS = 150;

const HEADINGS: Record<SearchKind, string> = { orders: 'Orders', jobs: 'Jobs', batches: 'Batches', designs: 'Designs', sites: 'Sites', users: 'Users' };

interface Option {
  kind: SearchKind;
  hit: SearchHit;
  /** The option element's id (aria-activedescendant). */
  domId: string;
}

type Answer = { q: string; results: SearchResults } | { q: string; error: string };

/** The results of the typed text, asked SEARCH_DEBOUNCE_MS after the last key; a newer query cancels an older one's call. */
function useSearch(text: string): { answer: Answer | null; searching: boolean } {
  const q = text.trim();
  const [answer, setAnswer] = useState<Answer | null>(null);
  const asking = isSearchable(q);
  useEffect(() => {
    if (!asking) return undefined;
    const controller = new AbortController();
    const timer = setTimeout(() => {
      api<SearchResults>(`/api/search?q=${encodeURIComponent(q)}`, { signal: controller.signal }).then(
        // A cancelled call's late answer is dropped: it would hide the newer query's.
        (results) => {
          if (!controller.signal.aborted) setAnswer({ q, results });
        },
        (error: unknown) => {
          if (!controller.signal.aborted) setAnswer({ q, error: errorMessage(error) });
        },
      );
    }, SEARCH_DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [q, asking]);
  const current = asking && answer?.q === q ? answer : null;
  return { answer: current, searching: asking && !current };
}

function isTypingTarget(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName);
}

export function HeaderSearch() {
  const navigate = useNavigate();
  const baseId = useId();
  const listboxId = `${baseId}-listbox`;
  const inputRef = useRef<HTMLInputElement>(null);
  const boxRef = useRef<HTMLDivElement>(null);
  const [text, setText] = useState('');
  const [open, setOpen] = useState(false);
  // Phones: the box is shown only once the icon (or `/`) opens it.
  const [expanded, setExpanded] = useState(false);
  // The highlighted result belongs to the answer it was picked in: a new answer starts with
  // nothing highlighted, without an effect that could land after the user's first keys.
  const [highlight, setHighlight] = useState<{ of: Answer | null; index: number }>({ of: null, index: -1 });
  const { answer, searching } = useSearch(text);

  const options = useMemo<Option[]>(() => {
    if (!answer || !('results' in answer)) return [];
    return SEARCH_KINDS.flatMap((kind) => (answer.results[kind] ?? []).map((hit) => ({ kind, hit, domId: `${baseId}-${kind}-${hit.id}` })));
  }, [answer, baseId]);
  const active = highlight.of === answer ? highlight.index : -1;
  const setActive = (next: number | ((current: number) => number)) =>
    setHighlight((h) => {
      const current = h.of === answer ? h.index : -1;
      return { of: answer, index: typeof next === 'function' ? next(current) : next };
    });

  const focusBox = useCallback(() => {
    setExpanded(true);
    // The box may only now be shown (phone width).
    setTimeout(() => inputRef.current?.focus(), 0);
  }, []);

  useEffect(() => {
    const onKey = (e: globalThis.KeyboardEvent) => {
      if (e.key !== '/' || e.ctrlKey || e.metaKey || e.altKey || isTypingTarget(e.target)) return;
      e.preventDefault();
      focusBox();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [focusBox]);

  const close = () => {
    setOpen(false);
    setActive(-1);
  };
  const openOption = (o: Option) => {
    close();
    setText('');
    setExpanded(false);
    inputRef.current?.blur();
    navigate(o.hit.link);
  };

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      setOpen(true);
      if (!options.length) return;
      const step = e.key === 'ArrowDown' ? 1 : -1;
      setActive((i) => (i === -1 ? (step === 1 ? 0 : options.length - 1) : (i + step + options.length) % options.length));
    } else if (e.key === 'Enter') {
      // Enter with nothing highlighted opens the first result.
      const chosen = options[active] ?? options[0];
      if (chosen) {
        e.preventDefault();
        openOption(chosen);
      }
    } else if (e.key === 'Escape') {
      if (open) close();
      else {
        setText('');
        setExpanded(false);
        inputRef.current?.blur();
      }
    }
  };

  const showList = open && isSearchable(text.trim());
  const activeOption = showList ? options[active] : undefined;
  let status: string | null = null;
  if (searching) status = 'Searching…';
  else if (answer && 'error' in answer) status = answer.error;
  else if (answer && !options.length) status = `Nothing found for “${answer.q}”.`;

  return (
    <>
      <Tooltip title="Search (/)">
        <IconButton color="inherit" aria-label="Open search" onClick={focusBox} sx={{ display: { xs: expanded ? 'none' : 'inline-flex', sm: 'none' } }}>
          <SearchIcon />
        </IconButton>
      </Tooltip>
      <ClickAwayListener onClickAway={close}>
        <Box
          ref={boxRef}
          data-testid="header-search"
          sx={(theme) => ({
            display: { xs: expanded ? 'flex' : 'none', sm: 'flex' },
            alignItems: 'center',
            gap: 1,
            px: 1.5,
            mr: { xs: 0, sm: 2 },
            height: 34,
            borderRadius: 1,
            width: { sm: 240, md: 300 },
            // Phones: across the header, over the title.
            position: { xs: 'absolute', sm: 'relative' },
            left: { xs: 8, sm: 'auto' },
            right: { xs: 8, sm: 'auto' },
            zIndex: 1,
            backgroundColor: { xs: theme.palette.primary.main, sm: alpha(theme.palette.common.white, 0.18) },
            boxShadow: { xs: `inset 0 0 0 100px ${alpha(theme.palette.common.white, 0.18)}`, sm: 'none' },
            '&:hover': { backgroundColor: { sm: alpha(theme.palette.common.white, 0.25) } },
          })}
        >
          <SearchIcon fontSize="small" />
          <InputBase
            inputRef={inputRef}
            value={text}
            placeholder="Search…  /"
            onChange={(e) => {
              setText(e.target.value);
              setOpen(true);
            }}
            onFocus={() => setOpen(true)}
            onKeyDown={onKeyDown}
            inputProps={{
              role: 'combobox',
              'aria-label': 'Search orders, jobs and designs',
              'aria-autocomplete': 'list',
              'aria-expanded': showList,
              'aria-controls': listboxId,
              'aria-activedescendant': activeOption?.domId,
              maxLength: 100,
              autoComplete: 'off',
              spellCheck: false,
            }}
            sx={{ color: 'inherit', flex: 1, fontSize: 14 }}
          />
          {expanded ? (
            <IconButton
              size="small"
              color="inherit"
              aria-label="Close search"
              onClick={() => {
                close();
                setText('');
                setExpanded(false);
              }}
              sx={{ display: { sm: 'none' } }}
            >
              <CloseIcon fontSize="small" />
            </IconButton>
          ) : null}
          <Popper open={showList} anchorEl={boxRef.current} placement="bottom-start" sx={{ zIndex: (theme) => theme.zIndex.appBar + 1, width: { xs: 'calc(100vw - 16px)', sm: 420 } }}>
            <Paper elevation={8} sx={{ mt: 0.5, maxHeight: '70vh', overflowY: 'auto' }}>
              {status ? (
                <Typography role="status" variant="body2" color="text.secondary" sx={{ px: 2, py: 1.5 }}>
                  {status}
                </Typography>
              ) : null}
              <List id={listboxId} role="listbox" aria-label="Search results" dense disablePadding>
                {SEARCH_KINDS.map((kind) => {
                  const group = options.filter((o) => o.kind === kind);
                  if (!group.length) return null;
                  const headingId = `${baseId}-${kind}-heading`;
                  return (
                    <li key={kind} role="presentation">
                      <List role="group" aria-labelledby={headingId} dense disablePadding>
                        <ListSubheader id={headingId} role="presentation" sx={{ lineHeight: '32px', fontWeight: 700 }}>
                          {HEADINGS[kind]}
                        </ListSubheader>
                        {group.map((o) => (
                          <ListItemButton
                            key={o.domId}
                            id={o.domId}
                            role="option"
                            aria-selected={o === activeOption}
                            selected={o === activeOption}
                            tabIndex={-1}
                            // Keep the focus in the box: a click opens the result before blur could close the list.
                            onMouseDown={(e) => e.preventDefault()}
                            onClick={() => openOption(o)}
                          >
                            <ListItemText primary={o.hit.label} secondary={o.hit.sub || null} slotProps={{ primary: { noWrap: true }, secondary: { noWrap: true } }} />
                          </ListItemButton>
                        ))}
                      </List>
                    </li>
                  );
                })}
              </List>
            </Paper>
          </Popper>
        </Box>
      </ClickAwayListener>
    </>
  );
}
