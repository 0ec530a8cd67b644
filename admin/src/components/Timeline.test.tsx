import { describe, expect, it } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import { Timeline } from './Timeline';

// Local times, so the DD/MM/YYYY HH:mm shown is the one written here whatever the zone.
const at = (y: number, m: number, d: number, h: number, min: number) => new Date(y, m - 1, d, h, min).toISOString();

describe('Timeline', () => {
  it('shows each entry: when (DD/MM/YYYY HH:mm), what, from → to, who or which rule, and why', () => {
    render(
      <Timeline
        showSubject
        entries={[
          { at: at(2026, 11, 20, 9, 5), actor: { automatic: 'Shopify webhook orders/paid' }, action: 'paid', from: 'pending', to: 'paid', reason: null, kind: 'order', subjectId: '1001' },
          { at: at(2026, 11, 21, 14, 30), actor: { id: 3, name: 'Sam Staff' }, action: 'reprinted', from: 'printed', to: 'queued', reason: 'print defect', kind: 'job', subjectId: '42' },
        ]}
      />,
    );
    const items = within(screen.getByRole('list', { name: 'History' })).getAllByRole('listitem');
    expect(items).toHaveLength(2);
    expect(items[0]).toHaveTextContent('20/11/2026 09:05');
    expect(items[0]).toHaveTextContent('Paid');
    expect(items[0]).toHaveTextContent('pending → paid');
    expect(items[0]).toHaveTextContent('by Automatic: Shopify webhook orders/paid');
    expect(items[0]).not.toHaveTextContent('Why');
    // An order's own entries name no subject; its jobs' entries say which job.
    expect(items[0]).not.toHaveTextContent('Job #');
    expect(items[1]).toHaveTextContent('21/11/2026 14:30');
    expect(items[1]).toHaveTextContent('Job #42');
    expect(items[1]).toHaveTextContent('Reprinted');
    expect(items[1]).toHaveTextContent('printed → queued');
    expect(items[1]).toHaveTextContent('by Sam Staff');
    expect(items[1]).toHaveTextContent('Why: print defect');
  });

  it('says when nothing was recorded', () => {
    render(<Timeline entries={[]} empty="Nothing recorded for this order yet." />);
    expect(screen.getByText('Nothing recorded for this order yet.')).toBeInTheDocument();
    expect(screen.queryByRole('list')).toBeNull();
  });
});
