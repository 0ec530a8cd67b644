// The API reference for admins: the server's own OpenAPI document (GET /api/openapi.json, made
// from the route table and the zod schemas), shown as a readable list — every path and method,
// its one line, who may call it, and its query and body fields. Nothing is fetched from elsewhere.
import { useMemo, useState } from 'react';
import { Title } from 'react-admin';
import { useQuery } from '@tanstack/react-query';
import { Alert, Box, Card, CardContent, Chip, LinearProgress, Table, TableBody, TableCell, TableHead, TableRow, TextField, Typography } from '@mui/material';
import { RequireAccess } from '../../components/RequireAccess';
import { usePageTitle } from '../../layout/usePageTitle';
import { authHeaders } from '../../providers/session';

interface Schema {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  enum?: unknown[];
  anyOf?: Schema[];
  oneOf?: Schema[];
  description?: string;
  $ref?: string;
}
interface Operation {
  summary?: string;
  description?: string;
  tags?: string[];
  parameters?: Array<{ name: string; in: string; required?: boolean; schema?: Schema; description?: string }>;
  requestBody?: { content: Record<string, { schema?: Schema }> };
}
export interface OpenApiDocument {
  info: { title: string; version: string; description?: string };
  paths: Record<string, Record<string, Operation>>;
}

const METHOD_COLOURS: Record<string, 'success' | 'primary' | 'warning' | 'error' | 'default'> = { get: 'success', post: 'primary', put: 'warning', delete: 'error' };

/** A schema's type in a few words: `string`, `integer[]`, `one of a | b`. */
export function typeOf(s: Schema | undefined): string {
  if (!s) return '';
  if (s.enum) return `one of ${s.enum.map(String).join(' | ')}`;
  const alternatives = s.anyOf ?? s.oneOf;
  if (alternatives) return alternatives.map(typeOf).join(' or ');
  if (s.type === 'array') return `${typeOf(s.items) || 'value'}[]`;
  if (Array.isArray(s.type)) return s.type.join(' or ');
  return s.type ?? (s.$ref ? s.$ref.split('/').pop() ?? '' : 'any');
}

/** The fields a body or query takes, one row each (a union lists each alternative's fields). */
export function fieldsOf(s: Schema | undefined): Array<{ name: string; type: string; required: boolean }> {
  if (!s) return [];
  const alternatives = s.anyOf ?? s.oneOf;
  if (alternatives) return alternatives.flatMap(fieldsOf);
  return Object.entries(s.properties ?? {}).map(([name, p]) => ({ name, type: typeOf(p), required: (s.required ?? []).includes(name) }));
}

/** Text whose `code` spans are shown as code (the document's descriptions are markdown). */
function WithCode({ text }: { text: string }) {
  return (
    <>
      {text.split('`').map((part, i) => (i % 2 ? <code key={i}>{part}</code> : <span key={i}>{part}</span>))}
    </>
  );
}

function Fields({ title, rows }: { title: string; rows: Array<{ name: string; type: string; required: boolean }> }) {
  if (!rows.length) return null;
  return (
    <Typography variant="body2" component="div" sx={{ mt: 0.5 }}>
      <strong>{title}:</strong>{' '}
      {rows.map((f, i) => (
        <span key={`${f.name}-${i}`}>
          {i > 0 && ', '}
          <code>{f.name}</code>
          {f.required ? '' : '?'} <Box component="span" sx={{ color: 'text.secondary' }}>({f.type})</Box>
        </span>
      ))}
    </Typography>
  );
}

async function fetchReference(): Promise<OpenApiDocument> {
  const res = await fetch('/api/openapi.json', { headers: { Accept: 'application/json', ...authHeaders() } });
  const body = (await res.json().catch(() => null)) as (OpenApiDocument & { error?: string }) | null;
  if (!res.ok || !body?.paths) throw new Error(body?.error ?? `The API reference could not be read (${res.status})`);
  return body;
}

export function ApiReferenceView() {
  usePageTitle('API reference');
  const [filter, setFilter] = useState('');
  const query = useQuery({ queryKey: ['api-reference'], queryFn: fetchReference, retry: false, staleTime: Infinity });
  const rows = useMemo(() => {
    const all = Object.entries(query.data?.paths ?? {})
      .sort(([a], [b]) => a.localeCompare(b))
      .flatMap(([path, methods]) => Object.entries(methods).map(([method, op]) => ({ path, method, op })));
    const words = filter.trim().toLowerCase();
    return words ? all.filter((r) => `${r.method} ${r.path} ${r.op.summary ?? ''}`.toLowerCase().includes(words)) : all;
  }, [query.data, filter]);

  return (
    <Card sx={{ mt: 2, mb: 4 }}>
      <Title title="API reference" />
      <CardContent>
        {query.isPending && <LinearProgress />}
        {query.error && <Alert severity="error">{(query.error as Error).message}</Alert>}
        {query.data && (
          <>
            <Typography variant="h6">
              {query.data.info.title} {query.data.info.version}
            </Typography>
            <Typography variant="body2" sx={{ mb: 2 }}>
              <WithCode text={query.data.info.description ?? ''} /> The document itself: <code>GET /api/openapi.json</code> (OpenAPI 3.1).
            </Typography>
            <TextField label="Find a route" size="small" value={filter} onChange={(e) => setFilter(e.target.value)} sx={{ mb: 2, minWidth: 320 }} />
            <Table size="small" aria-label="Routes">
              <TableHead>
                <TableRow>
                  <TableCell>Route</TableCell>
                  <TableCell>What it does</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {rows.map(({ path, method, op }) => {
                  const query = (op.parameters ?? []).filter((p) => p.in === 'query').map((p) => ({ name: p.name, type: typeOf(p.schema), required: Boolean(p.required) }));
                  const media = Object.entries(op.requestBody?.content ?? {})[0];
                  const body = fieldsOf(media?.[1].schema);
                  return (
                    <TableRow key={`${method} ${path}`} sx={{ verticalAlign: 'top' }}>
                      <TableCell sx={{ whiteSpace: 'nowrap', width: '1%' }}>
                        <Chip size="small" label={method.toUpperCase()} color={METHOD_COLOURS[method] ?? 'default'} sx={{ mr: 1, minWidth: 64 }} />
                        <code>{path}</code>
                      </TableCell>
                      <TableCell>
                        <Typography variant="body2">
                          <WithCode text={op.summary ?? ''} />
                        </Typography>
                        <Typography variant="body2" sx={{ color: 'text.secondary', whiteSpace: 'pre-line' }}>
                          <WithCode text={op.description ?? ''} />
                        </Typography>
                        <Fields title="Query" rows={query} />
                        <Fields title={media && media[0] !== 'application/json' ? `Body (${media[0]})` : 'Body'} rows={body} />
                      </TableCell>
                    </TableRow>
                  );
                })}
              </TableBody>
            </Table>
          </>
        )}
      </CardContent>
    </Card>
  );
}

/** /api-reference: admins only. */
export default function ApiReferencePage() {
  return (
    <RequireAccess resource="api-reference" action="list">
      <ApiReferenceView />
    </RequireAccess>
  );
}
