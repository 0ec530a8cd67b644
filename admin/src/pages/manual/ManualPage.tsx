// The operator's guide (docs/operators-guide.md), shown in the app: the same file the repository
// keeps, built into this page, so the running app and the docs never disagree.
import { useMemo } from 'react';
import { Title } from 'react-admin';
import { Box, Card, CardContent } from '@mui/material';
import MarkdownIt from 'markdown-it';
import guide from '../../../../docs/operators-guide.md?raw';
import { RequireAccess } from '../../components/RequireAccess';
import { usePageTitle } from '../../layout/usePageTitle';

// Our own file: no raw HTML is let through all the same, and bare addresses become links.
const markdown = new MarkdownIt({ html: false, linkify: true, typographer: false });

/** The guide's HTML (its headings, lists, links and code), from the markdown the repository keeps. */
export const guideHtml = (source: string = guide) => markdown.render(source);

/** /manual: the operator's guide, linked from Home's "manual". */
export function ManualPage() {
  usePageTitle('Manual');
  const html = useMemo(() => guideHtml(), []);
  return (
    <Card sx={{ mt: 2, mb: 4 }}>
      <Title title="Manual" />
      <CardContent>
        <Box
          component="article"
          aria-label="Operator's guide"
          sx={{ maxWidth: 820, typography: 'body1', '& h1': { typography: 'h5', mt: 0 }, '& h2': { typography: 'h6', mt: 3 }, '& code': { fontFamily: 'monospace', bgcolor: 'action.hover', px: 0.5, borderRadius: 0.5 }, '& li': { mb: 0.5 }, overflowWrap: 'anywhere' }}
          dangerouslySetInnerHTML={{ __html: html }}
        />
      </CardContent>
    </Card>
  );
}

/** /manual: signed-in users only, like every screen of the menu. */
export default function ManualScreen() {
  return (
    <RequireAccess resource="manual" action="list">
      <ManualPage />
    </RequireAccess>
  );
}
